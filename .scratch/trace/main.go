package main

import (
	"encoding/hex"
	"fmt"
	"math/big"
	"os"
	"strings"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/rawdb"
	"github.com/ethereum/go-ethereum/core/state"
	"github.com/ethereum/go-ethereum/core/tracing"
	"github.com/ethereum/go-ethereum/core/vm"
	"github.com/ethereum/go-ethereum/core/vm/runtime"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/params"

	"github.com/tokenrisk/tokenrisk/internal/evm"
)

func main() {
	raw, _ := os.ReadFile(os.Args[1])
	code, _ := hex.DecodeString(strings.TrimPrefix(strings.TrimSpace(string(raw)), "0x"))
	r := evm.AnalyseCode(code)
	fmt.Println("selectors:")
	for _, s := range r.Selectors {
		names := ""
		for _, p := range evm.LookupPrivileged(s) {
			names += p.Signature + " "
		}
		fmt.Println(" ", s, names)
	}
	if len(os.Args) < 3 {
		return
	}
	// call selector with args
	data, _ := hex.DecodeString(strings.TrimPrefix(os.Args[2], "0x"))
	sdb, _ := state.New(common.Hash{}, state.NewDatabaseForTesting())
	_ = rawdb.NewMemoryDatabase
	addr := common.HexToAddress("0x1000")
	sdb.SetCode(addr, code, tracing.CodeChangeUnspecified)
	cfg := &runtime.Config{State: sdb, ChainConfig: params.MergedTestChainConfig, GasLimit: 10_000_000, Origin: common.HexToAddress("0xabc"), BlockNumber: big.NewInt(1), Time: 1}
	cfg.EVMConfig.Tracer = &tracing.Hooks{OnOpcode: func(pc uint64, op byte, gas, cost uint64, scope tracing.OpContext, rData []byte, depth int, err error) {
		o := vm.OpCode(op)
		st := scope.StackData()
		switch o {
		case vm.SLOAD, vm.SSTORE:
			fmt.Printf("pc %d %s %x\n", pc, o, st[len(st)-1].Bytes32())
		case vm.KECCAK256:
			off, n := st[len(st)-1].Uint64(), st[len(st)-2].Uint64()
			fmt.Printf("pc %d SHA3 %x\n", pc, scope.MemoryData()[off:off+n])
		case vm.CALLER, vm.ORIGIN, vm.JUMPI:
			if o != vm.JUMPI {
				fmt.Printf("pc %d %s\n", pc, o)
			}
		}
	}}
	ret, _, err := runtime.Call(addr, data, cfg)
	fmt.Printf("ret %x err %v\n", ret, err)
	_ = crypto.Keccak256
}
