package chains_test

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/tokenrisk/tokenrisk/internal/chains"
)

// TestV4DocListsEveryDeployment keeps docs/uniswap-v4.md's table of
// configured Uniswap V4 deployments true to the shipped chains file: one
// row per V4 DEX with its chain id, PoolManager, StateView, position
// manager and deployment block, and no row for a deployment the file
// lacks.
func TestV4DocListsEveryDeployment(t *testing.T) {
	reg, err := chains.Load("")
	if err != nil {
		t.Fatal(err)
	}
	doc, err := os.ReadFile("../../docs/uniswap-v4.md")
	if err != nil {
		t.Fatal(err)
	}
	rows := map[string]bool{}
	for _, line := range strings.Split(string(doc), "\n") {
		if strings.HasPrefix(line, "| ") && strings.Contains(line, "`0x") {
			rows[line] = true
		}
	}
	n := 0
	for _, c := range reg.All() {
		for _, d := range c.DEXes {
			if d.Kind != "v4" {
				continue
			}
			n++
			row := fmt.Sprintf("| %s | %d | `%s` | `%s` | `%s` | %d |", c.Key, c.ChainID, d.PoolManager, d.StateView, d.PositionManager, d.FromBlock)
			if !rows[row] {
				t.Errorf("docs/uniswap-v4.md lacks the row\n%s", row)
			}
			delete(rows, row)
		}
	}
	for row := range rows {
		t.Errorf("docs/uniswap-v4.md lists a deployment the chains file does not: %s", row)
	}
	if n == 0 {
		t.Error("the shipped chains file configures no Uniswap V4 deployment")
	}
}
