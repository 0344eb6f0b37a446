package devnet

import (
	"fmt"
	"math/big"
)

// Second shapes of the field zoo (issue 18): each field the first zoo
// expressed with one contract gets another written differently
// (contracts/src/zoo/FieldShapes2.sol, FieldProxies2.sol), and three
// fields get a benign look-alike that must not read as the power.

// fieldSpecs2 are the second shapes and their look-alikes.
func fieldSpecs2() []zooSpec {
	field := func(s zooSpec) zooSpec {
		s.decimals = 18
		s.poolPct, s.poolETH = 50, 20
		s.holders, s.holderPct = fieldHolders, 50
		s.buys = 2
		return s
	}
	return []zooSpec{
		field(zooSpec{kind: "selfdestruct_vault", deploy: plain("VaultSunsetToken", supplyOnly), owner: ownerless,
			behaviour: "No owner() and no kill(): the custodian stored at deployment passes an inline check in the misnamed rebalanceVault(address), which runs SELFDESTRUCT in assembly."}),
		field(zooSpec{kind: "balance_assembly", deploy: plain("LedgerSyncToken", supplyOnly),
			behaviour: "The owner's reconcile(address,uint256), named like an accounting fix, overwrites any holder's balance with an assembly SSTORE at the balance's hashed slot."}),
		field(zooSpec{kind: "pause_mode", deploy: plain("ModeSwitchToken", supplyOnly),
			behaviour: "An operating mode (a uint8, not a paused flag): the owner's setOperatingMode(1) or (2) halts every transfer but its own; live (0) today."}),
		// Nobody can buy: no buys in the setup history, one holder's sell.
		{kind: "cannot_buy_start_block", deploy: plain("LaunchBlockToken", routerSupply), decimals: 18,
			poolPct: 50, poolETH: 20, holders: fieldHolders, holderPct: 50,
			behaviour: "Buys from the pair revert below a start block that is unset at launch; only the owner's misnamed syncLiquidity(uint256) sets it. A fresh wallet cannot buy; holders sell freely."},
		field(zooSpec{kind: "fee_schedule", deploy: plain("FeeScheduleToken", routerSupply),
			behaviour: "Buy and sell fees in basis points live in one stored struct (1% each today); the owner replaces it with setSchedule((uint16,uint16)), up to 100% each, behind an inline check."}),
		field(zooSpec{kind: "proxy_beacon", deploy: deployBeaconProxy,
			behaviour: "EIP-1967 beacon proxy: every call runs the implementation a beacon names, and the beacon's owner (the creator) repoints it with upgradeTo(address)."}),
		field(zooSpec{kind: "proxy_custom_slot", deploy: deployCustomSlotProxy,
			behaviour: "A proxy whose logic address sits at keccak256(\"vault.router.logic\"), no standard slot; the controller (the creator) repoints it with migrateLogic(address)."}),
		// Benign look-alikes.
		field(zooSpec{kind: "benign_pause_renounced", deploy: plain("RetiredPauseToken", supplyOnly), owner: renounced,
			after:     creatorCalls("RetiredPauseToken", "renounceOwnership"),
			behaviour: "Benign: pause() and unpause() only the owner could call, and ownership is renounced; it is not paused."}),
		field(zooSpec{kind: "benign_fee_capped", deploy: plain("CappedFeeToken", routerSupply),
			behaviour: "Benign: 2% buy and sell fees the owner may change with setFees(uint256,uint256), never above 5%."}),
		field(zooSpec{kind: "benign_destroy_named", deploy: plain("BurnableLedgerToken", supplyOnly), owner: ownerless,
			behaviour: "Benign: destroy() burns the caller's own tokens; there is no SELFDESTRUCT and no owner."}),
	}
}

// deployBeaconProxy deploys UpgradeableToken behind a beacon the creator
// owns and a beacon proxy initialised through it.
func deployBeaconProxy(w *writer, _ *zooEnv, creator *account, supply *big.Int) (deployed, error) {
	impl, err := w.deploy(creator, "UpgradeableToken")
	if err != nil {
		return deployed{}, err
	}
	beacon, err := w.deploy(creator, "TokenBeacon", impl)
	if err != nil {
		return deployed{}, err
	}
	init, err := initUpgradeable(w, "Beacon Yield Dollar", "BYD", supply, creator)
	if err != nil {
		return deployed{}, err
	}
	proxy, err := w.deploy(creator, "BeaconTokenProxy", beacon, init)
	return deployed{token: proxy, implementation: impl}, err
}

// deployCustomSlotProxy deploys UpgradeableToken behind a proxy that
// keeps the logic address at a slot of its own naming.
func deployCustomSlotProxy(w *writer, _ *zooEnv, creator *account, supply *big.Int) (deployed, error) {
	impl, err := w.deploy(creator, "UpgradeableToken")
	if err != nil {
		return deployed{}, err
	}
	init, err := initUpgradeable(w, "Vault Router Dollar", "VRD", supply, creator)
	if err != nil {
		return deployed{}, err
	}
	proxy, err := w.deploy(creator, "VaultRouterProxy", impl, creator.addr, init)
	return deployed{token: proxy, implementation: impl}, err
}

func initUpgradeable(w *writer, name, symbol string, supply *big.Int, owner *account) ([]byte, error) {
	c, err := w.artifact("UpgradeableToken")
	if err != nil {
		return nil, err
	}
	init, err := c.ABI.Pack("initialize", name, symbol, supply, owner.addr)
	if err != nil {
		return nil, fmt.Errorf("devnet: pack initialize: %w", err)
	}
	return init, nil
}
