package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/tokenrisk/tokenrisk/internal/risk"
)

// TestDocsLinkOnlyInsideTheRepository: every relative link of the README
// and docs/ names a file or directory of this repository (no ../shared).
func TestDocsLinkOnlyInsideTheRepository(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	files := []string{filepath.Join(root, "README.md")}
	err = filepath.WalkDir(filepath.Join(root, "docs"), func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".md") {
			files = append(files, p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	link := regexp.MustCompile(`\]\(([^)\s]+)\)`)
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range link.FindAllStringSubmatch(string(b), -1) {
			target, _, _ := strings.Cut(m[1], "#")
			if target == "" || strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			abs := filepath.Clean(filepath.Join(filepath.Dir(f), target))
			if rel, err := filepath.Rel(root, abs); err != nil || strings.HasPrefix(rel, "..") {
				t.Errorf("%s links %s, outside the repository", f, m[1])
				continue
			}
			if _, err := os.Stat(abs); err != nil {
				t.Errorf("%s links %s, which does not exist", f, m[1])
			}
		}
	}
}

// TestAPIReferenceNamesEveryFlag keeps docs/api.md's flag tables true to
// the catalogue.
func TestAPIReferenceNamesEveryFlag(t *testing.T) {
	b, err := os.ReadFile("../../docs/api.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range risk.NewCatalogue().All() {
		if !strings.Contains(string(b), "| `"+d.Code+"` | "+string(d.Severity)+" |") {
			t.Errorf("docs/api.md lacks %s (%s)", d.Code, d.Severity)
		}
	}
}
