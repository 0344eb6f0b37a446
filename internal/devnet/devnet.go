// Package devnet runs an in-process EVM dev chain (go-ethereum's simulated
// backend) with WETH, a Uniswap-V2-compatible AMM, an LP locker, a USD
// stablecoin and a zoo of tokens built to have known risks, served over
// HTTP JSON-RPC on loopback.
package devnet

import (
	"context"
	"crypto/ecdsa"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"math/big"
	"net"
	"os"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/eth/ethconfig"
	"github.com/ethereum/go-ethereum/ethclient"
	"github.com/ethereum/go-ethereum/ethclient/simulated"
	"github.com/ethereum/go-ethereum/node"
	"github.com/ethereum/go-ethereum/params"
	"github.com/ethereum/go-ethereum/rlp"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/tokenrisk/tokenrisk/internal/chains"
)

// ChainKey is the devnet's key in the chain registry.
const ChainKey = "devnet"

// blockGasLimit leaves room for a batch of deployments per block (the
// setup chain deploys the whole zoo, V4 kinds included, in a few blocks:
// 300M was reached once the zoo grew past ~100 tokens).
const blockGasLimit = 1_000_000_000

// defaultCommitInterval is how often the background committer looks for
// transactions sent by RPC clients.
const defaultCommitInterval = 200 * time.Millisecond

// Options configures Start.
type Options struct {
	// RPCAddr is the host:port the HTTP JSON-RPC server listens on; ""
	// picks a free 127.0.0.1 port.
	RPCAddr string
	// Logger receives progress messages; nil discards them.
	Logger *slog.Logger
	// CommitInterval is how often pending transactions (sent by RPC
	// clients) are mined into a block; 0 means 200ms, negative disables the
	// background committer (tests that mine with Commit themselves).
	CommitInterval time.Duration
}

// Devnet is a running dev chain with its AMM and token zoo deployed.
type Devnet struct {
	backend  *simulated.Backend
	rpc      *rpc.Client
	rpcURL   string
	log      *slog.Logger
	manifest Manifest
	keys     map[common.Address]*ecdsa.PrivateKey
	history  uint64 // the last block of the planned setup history

	mu        sync.Mutex // serialises block production
	stop      chan struct{}
	done      chan struct{}
	closeOnce sync.Once
	closeErr  error
}

// Start boots the chain, deploys the AMM and the zoo, and serves JSON-RPC
// over HTTP. The deployment is deterministic (the same addresses every
// run); its history is dated relative to now, so pool ages are real ages
// by the wall clock. ctx bounds the start-up only.
func Start(ctx context.Context, opts Options) (*Devnet, error) {
	started := time.Now()
	logger := opts.Logger
	if logger == nil {
		logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	host, port, err := listenAddr(opts.RPCAddr)
	if err != nil {
		return nil, err
	}
	accts, err := newAccounts()
	if err != nil {
		return nil, err
	}
	now := started.Truncate(time.Second)
	genesisTime := now.Add(-historyStart)
	backend, err := newBackend(newGenesis(accts.genesisAlloc(), genesisTime), host, port)
	if err != nil {
		return nil, err
	}
	plan, m, err := planZoo(accts, now)
	if err != nil {
		_ = backend.Close()
		return nil, fmt.Errorf("devnet: plan: %w", err)
	}
	blocks, failed, err := plan.build(newGenesis(accts.genesisAlloc(), genesisTime))
	if err != nil {
		_ = backend.Close()
		return nil, err
	}
	rc, err := inprocRPC(backend)
	if err != nil {
		_ = backend.Close()
		return nil, err
	}
	d := &Devnet{
		backend: backend,
		rpc:     rc,
		rpcURL:  "http://" + net.JoinHostPort(host, strconv.Itoa(port)),
		log:     logger,
		keys:    accts.keys(),
		stop:    make(chan struct{}),
		done:    make(chan struct{}),
	}
	d.history = uint64(len(blocks))
	if err := d.importBlocks(ctx, blocks); err != nil {
		_ = backend.Close()
		return nil, err
	}
	if len(failed) > 0 {
		client := backend.Client()
		reasons := revertReasons(ctx, client, func(h common.Hash) (*types.Receipt, error) { return client.TransactionReceipt(ctx, h) }, failed)
		_ = backend.Close()
		return nil, fmt.Errorf("devnet: %d setup transactions reverted: %s", len(failed), reasons)
	}
	// One block at the wall clock's time: the head is "now", and the
	// transaction pool has caught up with the imported state.
	d.Commit()
	m.RPCURL = d.rpcURL
	m.ChainID = params.AllDevChainProtocolChanges.ChainID.Int64()
	d.manifest = m
	if m.PoolManager == "" {
		logger.Info("devnet: Uniswap V4 not deployed; its zoo kinds are absent", "uniswap_v4", m.UniswapV4)
	}

	interval := opts.CommitInterval
	if interval == 0 {
		interval = defaultCommitInterval
	}
	if interval > 0 {
		go d.commitLoop(interval)
	} else {
		close(d.done)
	}
	logger.Info("devnet ready", "rpc", d.rpcURL, "chain_id", m.ChainID, "tokens", len(m.Tokens),
		"setup_transactions", plan.sent, "blocks", len(blocks)+1, "took", time.Since(started).Round(time.Millisecond).String())
	return d, nil
}

// importBlocks inserts the planned history through the node's
// admin_importChain (reached in process only; it is not served over HTTP).
func (d *Devnet) importBlocks(ctx context.Context, blocks []*types.Block) error {
	f, err := os.CreateTemp("", "tokenrisk-devnet-*.rlp")
	if err != nil {
		return fmt.Errorf("devnet: history file: %w", err)
	}
	defer os.Remove(f.Name())
	for _, b := range blocks {
		if err := rlp.Encode(f, b); err != nil {
			f.Close()
			return fmt.Errorf("devnet: encode block %d: %w", b.NumberU64(), err)
		}
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("devnet: history file: %w", err)
	}
	var ok bool
	if err := d.rpc.CallContext(ctx, &ok, "admin_importChain", f.Name()); err != nil {
		return fmt.Errorf("devnet: import history: %w", err)
	}
	head, err := d.backend.Client().BlockNumber(ctx)
	if err != nil {
		return fmt.Errorf("devnet: head after import: %w", err)
	}
	if want := uint64(len(blocks)); head != want {
		return fmt.Errorf("devnet: head is block %d after importing %d blocks", head, want)
	}
	return nil
}

// inprocRPC digs the in-process RPC client out of the simulated backend's
// ethclient (the only handle on the node's full API set, admin included).
func inprocRPC(b *simulated.Backend) (*rpc.Client, error) {
	v := reflect.ValueOf(b.Client())
	if v.Kind() == reflect.Struct {
		if f := v.FieldByName("Client"); f.IsValid() && f.CanInterface() {
			if ec, ok := f.Interface().(*ethclient.Client); ok && ec != nil {
				return ec.Client(), nil
			}
		}
	}
	return nil, errors.New("devnet: the simulated backend's client no longer wraps an ethclient.Client")
}

// newGenesis is the devnet genesis: the dev chain's forks minus Bogota
// (whose gas schedule inflates a V2 swap ~3x, unlike any real chain), the
// system contracts those forks call, and the funded accounts.
func newGenesis(alloc types.GenesisAlloc, at time.Time) *core.Genesis {
	cfg := *params.AllDevChainProtocolChanges
	cfg.BogotaTime = nil
	full := core.SystemContractAllocs()
	maps.Copy(full, alloc)
	return &core.Genesis{
		Config:    &cfg,
		GasLimit:  blockGasLimit,
		Alloc:     full,
		Timestamp: uint64(at.Unix()),
	}
}

// listenAddr parses addr, picking a free loopback port when addr is "" or
// its port is 0.
func listenAddr(addr string) (string, int, error) {
	host, port, err := parseRPCAddr(addr)
	if err != nil || port != 0 {
		return host, port, err
	}
	l, err := net.Listen("tcp", net.JoinHostPort(host, "0"))
	if err != nil {
		return "", 0, fmt.Errorf("devnet: pick a free port: %w", err)
	}
	port = l.Addr().(*net.TCPAddr).Port
	if err := l.Close(); err != nil {
		return "", 0, fmt.Errorf("devnet: pick a free port: %w", err)
	}
	return host, port, nil
}

// parseRPCAddr splits a host:port listen address; "" means 127.0.0.1:0
// and an empty host means 127.0.0.1 (the devnet never listens publicly
// unless told to).
func parseRPCAddr(addr string) (string, int, error) {
	if addr == "" {
		return "127.0.0.1", 0, nil
	}
	host, portStr, err := net.SplitHostPort(addr)
	if err != nil {
		return "", 0, fmt.Errorf("devnet: rpc address %q: %w", addr, err)
	}
	if host == "" {
		host = "127.0.0.1"
	}
	port, err := strconv.ParseUint(portStr, 10, 16)
	if err != nil {
		return "", 0, fmt.Errorf("devnet: rpc address %q: bad port", addr)
	}
	return host, int(port), nil
}

// devnetEVMTimeout bounds one eth_call or eth_simulateV1 on the devnet.
const devnetEVMTimeout = time.Minute

// newBackend builds the simulated chain on genesis, serving HTTP JSON-RPC
// on host:port.
func newBackend(genesis *core.Genesis, host string, port int) (backend *simulated.Backend, err error) {
	defer func() {
		// NewBackend panics when the node cannot start (e.g. port taken).
		if r := recover(); r != nil {
			err = fmt.Errorf("devnet: start chain on %s: %v", net.JoinHostPort(host, strconv.Itoa(port)), r)
		}
	}()
	backend = simulated.NewBackend(nil, func(nc *node.Config, ec *ethconfig.Config) {
		ec.Genesis = genesis
		ec.Miner.GasCeil = blockGasLimit
		// A node bounds each eth_call/eth_simulateV1 by its EVM timeout
		// (go-ethereum: 5 s). On a loaded test machine under the race
		// detector a whole zoo's simulations at once can pass it, and the
		// node then answers "context deadline exceeded": a verdict lost to
		// the machine, not to the token. The devnet allows a minute; the
		// engine's handling of nodes that time out is the chaos tier's.
		ec.RPCEVMTimeout = devnetEVMTimeout
		nc.HTTPHost = host
		nc.HTTPPort = port
		nc.HTTPModules = []string{"eth", "net", "web3", "txpool"}
		nc.HTTPVirtualHosts = []string{"*"}
		nc.HTTPCors = []string{"*"}
	})
	return backend, nil
}

// commitLoop mines a block whenever transactions are waiting, so clients
// that send transactions over RPC see them included.
//
// It asks over the devnet's HTTP endpoint, never over the in-process client
// the tests share: a status call cut short by its timeout on a loaded
// machine breaks the in-process connection, and every call in flight on it
// then fails with "client reconnected".
func (d *Devnet) commitLoop(interval time.Duration) {
	defer close(d.done)
	t := time.NewTicker(interval)
	defer t.Stop()
	client, err := rpc.DialOptions(context.Background(), d.rpcURL)
	if err != nil {
		d.log.Error("devnet: the committer cannot reach the devnet; transactions sent over RPC are mined only by Commit", "err", err)
		return
	}
	defer client.Close()
	for {
		select {
		case <-d.stop:
			return
		case <-t.C:
			var status struct {
				Pending hexUint `json:"pending"`
			}
			ctx, cancel := context.WithTimeout(context.Background(), max(interval, 2*time.Second))
			err := client.CallContext(ctx, &status, "txpool_status")
			cancel()
			if err != nil {
				d.log.Warn("devnet: txpool status", "err", err)
				continue
			}
			if status.Pending > 0 {
				d.Commit()
			}
		}
	}
}

// hexUint decodes a JSON-RPC quantity.
type hexUint uint64

// UnmarshalJSON decodes "0x…" quantities.
func (h *hexUint) UnmarshalJSON(b []byte) error {
	s, err := strconv.Unquote(string(b))
	if err != nil {
		return fmt.Errorf("devnet: quantity %s: %w", b, err)
	}
	digits, ok := strings.CutPrefix(s, "0x")
	if !ok {
		return fmt.Errorf("devnet: quantity %s: no 0x prefix", b)
	}
	v, err := strconv.ParseUint(digits, 16, 64)
	if err != nil {
		return fmt.Errorf("devnet: quantity %s: %w", b, err)
	}
	*h = hexUint(v)
	return nil
}

// Manifest describes what was deployed.
func (d *Devnet) Manifest() Manifest { return d.manifest.clone() }

// RPCURL is the HTTP JSON-RPC endpoint.
func (d *Devnet) RPCURL() string { return d.rpcURL }

// Backend is the simulated chain, for in-process tests. Mine with
// (*Devnet).Commit and (*Devnet).AdjustTime rather than the backend's own
// methods while the background committer runs.
func (d *Devnet) Backend() *simulated.Backend { return d.backend }

// Commit mines the pending transactions into a new block.
func (d *Devnet) Commit() common.Hash {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.backend.Commit()
}

// Send submits a signed transaction. The transaction pool takes up a new
// head in the background, so right after a block that funded the sender
// it may still see the old balance: a refusal for insufficient funds is
// retried for up to two seconds before it is returned.
func (d *Devnet) Send(ctx context.Context, tx *types.Transaction) error {
	client := d.backend.Client()
	deadline := time.Now().Add(2 * time.Second)
	for {
		err := client.SendTransaction(ctx, tx)
		if err == nil || !strings.Contains(err.Error(), "insufficient funds") || time.Now().After(deadline) {
			return err
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("devnet: send: %w (last refusal: %v)", ctx.Err(), err)
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// AdjustTime mines the pending transactions, then an empty block dt later
// than the head. The simulated chain refuses to move time over a block
// with transactions, and RPC clients may add one at any moment, so it
// mines and retries a few times before giving up.
func (d *Devnet) AdjustTime(dt time.Duration) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	var err error
	for range 5 {
		d.backend.Commit()
		if err = d.backend.AdjustTime(dt); err == nil {
			return nil
		}
	}
	return fmt.Errorf("devnet: adjust time: %w", err)
}

// Key returns the private key of an account the devnet created and funded
// (the deployer, token creators, holders), for tests that act as them.
func (d *Devnet) Key(addr common.Address) (*ecdsa.PrivateKey, bool) {
	k, ok := d.keys[addr]
	return k, ok
}

// Chain is the devnet in the chain-registry format every chain uses (see
// Manifest.Chain), reached at RPCURL.
func (d *Devnet) Chain() chains.Chain { return d.manifest.Chain(d.rpcURL) }

// Close stops the committer, the RPC server and the chain.
func (d *Devnet) Close() error {
	d.closeOnce.Do(func() {
		close(d.stop)
		<-d.done
		d.mu.Lock()
		defer d.mu.Unlock()
		if err := d.backend.Close(); err != nil {
			d.closeErr = fmt.Errorf("devnet: close: %w", err)
		}
	})
	return d.closeErr
}

// ether is n whole units of an 18-decimals amount.
func ether(n int64) *big.Int {
	return new(big.Int).Mul(big.NewInt(n), big.NewInt(1e18))
}
