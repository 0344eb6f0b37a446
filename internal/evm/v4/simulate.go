package v4

import (
	"errors"
	"fmt"
	"math/big"

	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/tokenrisk/tokenrisk/contracts"
)

// SimulatorAddress is where the V4 simulator's code is placed by state
// override for the call (an address with no code on any chain).
var SimulatorAddress = common.HexToAddress("0x00000000000000000000000000000000cafe0004")

// SimulationRecipient receives the transfer test's tokens.
var SimulationRecipient = common.HexToAddress("0x00000000000000000000000000000000be4e0004")

// DefaultBuyBps is the buy's size: 0.5% of the pool's quote-side virtual
// reserve.
const DefaultBuyBps = 50

// DefaultStepGas bounds each step (a hook runs inside the swap).
const DefaultStepGas = 3_000_000

// SimulationRequest is one simulation through a V4 pool.
type SimulationRequest struct {
	Pool  Pool
	Token common.Address
	// AmountIn is the quote to spend; nil means DefaultBuyBps of the
	// pool's quote-side virtual reserve at the time of the call (the
	// simulator reads the pool's state itself, so the pool's State may be
	// unknown: the call rides the same batch as the state read).
	AmountIn *big.Int
	StepGas  uint64
}

// Simulation is what the V4 simulator measured. Amounts are raw.
type Simulation struct {
	BuyOK       bool
	BuyError    []byte
	BuyGas      uint64
	AmountIn    *big.Int
	BuyCredit   *big.Int // token the swap credited (after the hook's delta)
	BuyTwin     *big.Int // token a hook-free pool of the same state credited
	BuyReceived *big.Int // token received when taken

	TransferOK       bool
	TransferError    []byte
	TransferGas      uint64
	TransferSent     *big.Int
	TransferReceived *big.Int

	SellOK       bool
	SellError    []byte
	SellGas      uint64
	SellSent     *big.Int // token sent to the PoolManager
	SellPaid     *big.Int // what the PoolManager counted as paid
	SellCredit   *big.Int // quote the swap credited (after the hook's delta)
	SellTwin     *big.Int // quote the hook-free twin credited for the same token
	SellReceived *big.Int

	// TwinOK is false when the hook-free twin could not be built (the
	// hook's cut is then unknown).
	TwinOK bool
	LPFee  uint32
}

// simParams and simResult mirror V4Simulator's structs for the ABI.
type simKey struct {
	Currency0   common.Address
	Currency1   common.Address
	Fee         *big.Int
	TickSpacing *big.Int
	Hooks       common.Address
}

type simParams struct {
	Manager    common.Address
	Key        simKey
	Token      common.Address
	AmountIn   *big.Int
	BuyBps     *big.Int
	Recipient  common.Address
	GasPerStep *big.Int
}

type simResult struct {
	BuyOk            bool
	BuyError         []byte
	BuyGas           *big.Int
	BuyCredit        *big.Int
	BuyTwin          *big.Int
	BuyReceived      *big.Int
	TransferOk       bool
	TransferError    []byte
	TransferGas      *big.Int
	TransferSent     *big.Int
	TransferReceived *big.Int
	SellOk           bool
	SellError        []byte
	SellGas          *big.Int
	SellSent         *big.Int
	SellPaid         *big.Int
	SellCredit       *big.Int
	SellTwin         *big.Int
	SellReceived     *big.Int
	TwinOk           bool
	LpFee            *big.Int
	AmountIn         *big.Int
}

// SimulationCall builds the eth_call of the V4 simulator (one batch
// element; the batch must write its answer back into the slice returned)
// and the decoder of that answer.
func SimulationCall(req SimulationRequest) ([]rpc.BatchElem, func() (*Simulation, error), error) {
	sim, err := contracts.Artifact("V4Simulator")
	if err != nil {
		return nil, nil, fmt.Errorf("v4 simulation: %w", err)
	}
	data, err := SimulationData(req)
	if err != nil {
		return nil, nil, err
	}
	stepGas := req.StepGas
	if stepGas == 0 {
		stepGas = DefaultStepGas
	}
	out := new(hexutil.Bytes)
	msg := map[string]any{"to": SimulatorAddress, "data": hexutil.Bytes(data), "gas": hexutil.Uint64(8*stepGas + 2_000_000)}
	overrides := map[common.Address]map[string]any{SimulatorAddress: {"code": hexutil.Bytes(sim.DeployedBytecode)}}
	elems := []rpc.BatchElem{{Method: "eth_call", Args: []any{msg, "latest", overrides}, Result: out}}
	decode := func() (*Simulation, error) {
		if elems[0].Error != nil {
			return nil, fmt.Errorf("v4 simulation: %w", elems[0].Error)
		}
		return decodeSimulation(sim.ABI, *out)
	}
	return elems, decode, nil
}

// SimulationData is the V4 simulator's calldata for req, for a contract
// that calls the simulator placed at SimulatorAddress itself (the hook
// prober); DecodeSimulation reads its answer.
func SimulationData(req SimulationRequest) ([]byte, error) {
	sim, err := contracts.Artifact("V4Simulator")
	if err != nil {
		return nil, fmt.Errorf("v4 simulation: %w", err)
	}
	amount := req.AmountIn
	if amount == nil {
		amount = new(big.Int) // sized by the simulator from the pool's state
	} else if amount.Sign() <= 0 {
		return nil, errors.New("v4 simulation: buy amount is not positive")
	}
	stepGas := req.StepGas
	if stepGas == 0 {
		stepGas = DefaultStepGas
	}
	k := req.Pool.Key
	data, err := sim.ABI.Pack("simulate", simParams{
		Manager: req.Pool.Manager,
		Key: simKey{Currency0: k.Currency0, Currency1: k.Currency1, Fee: big.NewInt(int64(k.Fee)),
			TickSpacing: big.NewInt(int64(k.TickSpacing)), Hooks: k.Hooks},
		Token: req.Token, AmountIn: amount, BuyBps: big.NewInt(DefaultBuyBps), Recipient: SimulationRecipient,
		GasPerStep: new(big.Int).SetUint64(stepGas),
	})
	if err != nil {
		return nil, fmt.Errorf("v4 simulation: pack: %w", err)
	}
	return data, nil
}

// DecodeSimulation reads the simulator's answer to SimulationData's call.
func DecodeSimulation(data []byte) (*Simulation, error) {
	sim, err := contracts.Artifact("V4Simulator")
	if err != nil {
		return nil, fmt.Errorf("v4 simulation: %w", err)
	}
	return decodeSimulation(sim.ABI, data)
}

func decodeSimulation(parsed abi.ABI, data []byte) (*Simulation, error) {
	vals, err := parsed.Methods["simulate"].Outputs.Unpack(data)
	if err != nil || len(vals) != 1 {
		return nil, fmt.Errorf("v4 simulation: unpack: %v", err)
	}
	r, ok := abi.ConvertType(vals[0], new(simResult)).(*simResult)
	if !ok {
		return nil, errors.New("v4 simulation: unexpected result shape")
	}
	return &Simulation{
		BuyOK: r.BuyOk, BuyError: r.BuyError, BuyGas: r.BuyGas.Uint64(), AmountIn: r.AmountIn,
		BuyCredit: r.BuyCredit, BuyTwin: r.BuyTwin, BuyReceived: r.BuyReceived,
		TransferOK: r.TransferOk, TransferError: r.TransferError, TransferGas: r.TransferGas.Uint64(),
		TransferSent: r.TransferSent, TransferReceived: r.TransferReceived,
		SellOK: r.SellOk, SellError: r.SellError, SellGas: r.SellGas.Uint64(),
		SellSent: r.SellSent, SellPaid: r.SellPaid, SellCredit: r.SellCredit, SellTwin: r.SellTwin, SellReceived: r.SellReceived,
		TwinOK: r.TwinOk, LPFee: uint32(r.LpFee.Uint64()),
	}, nil
}
