// Package devnet runs an in-process EVM dev chain (go-ethereum's simulated
// backend) with WETH, a Uniswap-V2-compatible AMM, an LP locker, a USD
// stablecoin and a zoo of tokens built to have known risks, served over
// HTTP JSON-RPC on loopback.
package devnet

import (
	"context"
	"crypto/ecdsa"
	"fmt"
	"io"
	"log/slog"
	"math/big"
	"net"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/eth/ethconfig"
	"github.com/ethereum/go-ethereum/ethclient/simulated"
	"github.com/ethereum/go-ethereum/node"
	"github.com/ethereum/go-ethereum/params"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/tokenrisk/tokenrisk/internal/chains"
)

// ChainKey is the devnet's key in the chain registry.
const ChainKey = "devnet"

// blockGasLimit leaves room for a batch of deployments per block.
const blockGasLimit = 300_000_000

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

	mu        sync.Mutex // serialises block production
	stop      chan struct{}
	done      chan struct{}
	closeOnce sync.Once
	closeErr  error
}

// Start boots the chain, deploys the AMM and the zoo, and serves JSON-RPC
// over HTTP. The deployment is deterministic: the same addresses every run.
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
	backend, err := newBackend(accts.genesisAlloc(), host, port)
	if err != nil {
		return nil, err
	}
	rpcURL := "http://" + net.JoinHostPort(host, strconv.Itoa(port))
	// The committer watches the pool over the same endpoint clients use.
	rc, err := rpc.DialHTTP(rpcURL)
	if err != nil {
		_ = backend.Close()
		return nil, fmt.Errorf("devnet: dial own rpc: %w", err)
	}
	d := &Devnet{
		backend: backend,
		rpc:     rc,
		rpcURL:  rpcURL,
		log:     logger,
		keys:    accts.keys(),
		stop:    make(chan struct{}),
		done:    make(chan struct{}),
	}
	m, err := deployZoo(ctx, d, accts)
	if err != nil {
		rc.Close()
		_ = backend.Close()
		return nil, fmt.Errorf("devnet: deploy: %w", err)
	}
	m.RPCURL = d.rpcURL
	m.ChainID = params.AllDevChainProtocolChanges.ChainID.Int64()
	d.manifest = m

	interval := opts.CommitInterval
	if interval == 0 {
		interval = defaultCommitInterval
	}
	if interval > 0 {
		go d.commitLoop(interval)
	} else {
		close(d.done)
	}
	head, _ := backend.Client().HeaderByNumber(ctx, nil)
	var block uint64
	if head != nil {
		block = head.Number.Uint64()
	}
	logger.Info("devnet ready", "rpc", d.rpcURL, "chain_id", m.ChainID, "tokens", len(m.Tokens),
		"blocks", block, "took", time.Since(started).Round(time.Millisecond))
	return d, nil
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

// newBackend builds the simulated chain. The dev genesis enables the
// Bogota fork, whose gas schedule inflates a V2 swap ~3x; real chains are
// not on it, so it is switched off.
func newBackend(alloc types.GenesisAlloc, host string, port int) (backend *simulated.Backend, err error) {
	cfg := *params.AllDevChainProtocolChanges
	cfg.BogotaTime = nil
	defer func() {
		// NewBackend panics when the node cannot start (e.g. port taken).
		if r := recover(); r != nil {
			err = fmt.Errorf("devnet: start chain on %s: %v", net.JoinHostPort(host, strconv.Itoa(port)), r)
		}
	}()
	backend = simulated.NewBackend(alloc,
		simulated.WithBlockGasLimit(blockGasLimit),
		func(nc *node.Config, ec *ethconfig.Config) {
			ec.Genesis.Config = &cfg
			ec.Genesis.Timestamp = uint64(time.Now().Add(-24 * time.Hour).Unix())
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
func (d *Devnet) commitLoop(interval time.Duration) {
	defer close(d.done)
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-d.stop:
			return
		case <-t.C:
			var status struct {
				Pending hexUint `json:"pending"`
			}
			ctx, cancel := context.WithTimeout(context.Background(), interval)
			err := d.rpc.CallContext(ctx, &status, "txpool_status")
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

// AdjustTime mines an empty block dt later than the head; it fails while
// transactions are pending.
func (d *Devnet) AdjustTime(dt time.Duration) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if err := d.backend.AdjustTime(dt); err != nil {
		return fmt.Errorf("devnet: adjust time: %w", err)
	}
	return nil
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
		d.rpc.Close()
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
