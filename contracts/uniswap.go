package contracts

import (
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strings"
)

// uniswapV4 holds what contracts/v4/build.sh compiled from npm when Go
// built this package: the real Uniswap V4 PoolManager and StateView. The
// directory is git-ignored except for its placeholder, so a checkout
// without that build embeds nothing and UniswapV4 reports ErrNotBuilt.
//
//go:embed all:v4/out
var uniswapV4 embed.FS

// ErrNotBuilt is returned by UniswapV4 when contracts/v4/build.sh has not
// run before the build.
var ErrNotBuilt = errors.New("contracts: Uniswap V4 is not built (run contracts/v4/build.sh)")

// UniswapV4 returns the real Uniswap V4 contract called name
// ("PoolManager", "StateView"), compiled from npm by contracts/v4/build.sh.
func UniswapV4(name string) (Compiled, error) {
	if name == "" || strings.ContainsAny(name, `/\.`) {
		return Compiled{}, fmt.Errorf("%w: %q", ErrUnknown, name)
	}
	data, err := uniswapV4.ReadFile(path.Join("v4/out", name+".json"))
	if errors.Is(err, fs.ErrNotExist) {
		if !UniswapV4Built() {
			return Compiled{}, ErrNotBuilt
		}
		return Compiled{}, fmt.Errorf("%w: %q", ErrUnknown, name)
	}
	if err != nil {
		return Compiled{}, fmt.Errorf("contracts: read %s: %w", name, err)
	}
	return parse(data)
}

// UniswapV4Built reports whether the Uniswap V4 build was embedded.
func UniswapV4Built() bool {
	_, err := fs.Stat(uniswapV4, "v4/out/PoolManager.json")
	return err == nil
}
