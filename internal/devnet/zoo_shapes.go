package devnet

import (
	"fmt"
	"math/big"

	"github.com/ethereum/go-ethereum/crypto"
)

// More field zoo shapes (issue 18): for the powers the newer probes
// prove, a shape the first field zoo lacks (inline caller checks instead
// of modifiers, arrays instead of mappings, assembly at hashed slots,
// misleading names); the power-free look-alikes of long-lived tokens
// (each must read minimal or low); and a token that siphons its holders.

// factoryWETH is the constructor of the precision tokens (PrecisionTokens.sol),
// which create their own pair.
func factoryWETH(env *zooEnv, _ *account, _ *big.Int) []any { return []any{env.factory, env.weth} }

// shapeSpecs are the added shapes, the power-free tokens and the siphon.
func shapeSpecs() []zooSpec {
	field := func(s zooSpec) zooSpec {
		s.decimals = 18
		s.poolPct, s.poolETH = 50, 20
		s.holders, s.holderPct, s.buys = fieldHolders, 50, 2
		return s
	}
	// A power-free token is spread as the clean token is (60% in the pool,
	// 40% over 60 holders: the top ten under the insider threshold), so
	// its level is its code's alone.
	free := func(s zooSpec) zooSpec {
		s.decimals = 18
		if s.poolPct == 0 {
			s.poolPct, s.holderPct = 60, 40
		}
		s.poolETH, s.holders, s.buys = 20, 60, 3
		return s
	}
	return []zooSpec{
		field(zooSpec{kind: "honeypot_owner_switch_asm", deploy: plain("GasTunerToken", routerSupply),
			behaviour: "Everyone trades today, but one call by the operator (an inline check, not a modifier), the misnamed optimizeGas(3), stores a level at a hashed slot with assembly that makes every sell into the pair revert."}),
		field(zooSpec{kind: "ownership_reclaim_stewards", deploy: plain("StewardToken", supplyOnly),
			behaviour: "Still owned at launch (inline owner checks, no Ownable); renounceOwnership() pushes the owner onto a stewards array, and syncGovernance(i) lets steward i become owner again."}),
		field(zooSpec{kind: "whitelist_partner_array", deploy: plain("PartnerListToken", routerSupply), owner: ownerless,
			behaviour: "Trades against the pair pay 5% unless a party is in the partners array the admin extends with onboard(address[]) (an inline check)."}),
		{kind: "whitelist_presale_array", deploy: plain("PresaleGateToken", routerSupply), owner: ownerless, decimals: 18,
			poolPct: 50, poolETH: 20, holders: fieldHolders, holderPct: 50, noSells: true,
			behaviour: "Trading is closed at launch: a transfer moves only when a party is in the presale traders array the deployer extends with allowTraders(address[]) (an inline check); a fresh wallet cannot buy."},
		field(zooSpec{kind: "personal_fee_asm", deploy: plain("WalletRateToken", routerSupply),
			behaviour: "Sells pay 2%, but the keeper's misnamed rebase(address,uint256) (an inline check) stores one wallet's sell fee, up to 100%, at a hashed slot with assembly."}),
		field(zooSpec{kind: "buy_cooldown_asm", deploy: plain("MevShieldToken", routerSupply),
			behaviour: "An 'anti-MEV shield' stamps each buyer's last buy at a hashed slot with assembly: a second buy by the same wallet within 60 seconds reverts; sells are never delayed."}),
		// A mint hidden in transfer, and its benign look-alike.
		field(zooSpec{kind: "mint_in_transfer", deploy: plain("MarketingMintToken", routerSupply), owner: ownerless,
			// The holders were credited without a debit, so the wallet still
			// holds what it handed out: it burns that much through
			// transferFrom (which debits), leaving no creator whale.
			after: func(w *writer, _ *zooEnv, t *zooToken) error {
				handedOut := pct(t.supply, t.spec.holderPct)
				if err := w.invoke(t.creator, "MarketingMintToken", t.token, nil, "approve", t.creator.addr, handedOut); err != nil {
					return err
				}
				return w.invoke(t.creator, "MarketingMintToken", t.token, nil, "transferFrom", t.creator.addr, deadAddress, handedOut)
			},
			behaviour: "No mint function and no owner(), but when the marketing wallet stored at deployment transfers, the recipient is credited and the wallet never debited: tokens from nowhere, totalSupply unchanged."}),
		field(zooSpec{kind: "benign_marketing_transfer", deploy: plain("MarketingFeeToken", routerSupply), owner: ownerless,
			behaviour: "Benign look-alike: the same marketing-wallet branch in transfer, but the wallet is debited what it sends; everyone else pays a 3% fee to it (the recipient gets less, never more)."}),
		// Two-step powers: the owner appoints, the appointee takes, mints or
		// freezes.
		field(zooSpec{kind: "seize_two_step", deploy: plain("AppointedAdminToken", routerSupply),
			behaviour: "The owner cannot take anything itself, but appointDesk(address) names an admin, and only the admin's recover(address,uint256) moves any holder's tokens to it without an allowance; no admin at launch."}),
		field(zooSpec{kind: "mint_two_step", deploy: plain("TreasuryDeskToken", routerSupply),
			behaviour: "The owner cannot mint itself, but setTreasuryDesk(address) (an inline owner check) names a desk, and only the desk's misnamed syncRewards(address,uint256) creates tokens for anyone (the total supply rises); no desk at launch."}),
		field(zooSpec{kind: "blacklist_two_step", deploy: plain("ComplianceDeskToken", routerSupply),
			behaviour: "The owner cannot freeze anyone itself, but updateReviewer(address) names a compliance reviewer, and only the reviewer's reviewAccount(address) (a modifier) makes a holder's transfers revert until clearAccount(address); no reviewer at launch."}),
		// A two-step mint through a stored amount: set, then credit.
		field(zooSpec{kind: "mint_set_then_credit", deploy: plain("RewardDropToken", routerSupply),
			behaviour: "The owner's misnamed configureRewards(uint256) stores a reward amount, then its distribute(address) adds that amount to the address's balance and to the total supply; the amount is zero at launch, so distribute alone creates nothing."}),
		// A proxy whose implementation gates a seizure on a keeper stored
		// past the first slots; owner and proxy admin renounced.
		field(zooSpec{kind: "proxy_keeper_seize", deploy: deployKeeperProxy, owner: renounced, after: renounceKeeperProxy,
			behaviour: "An EIP-1967 proxy whose admin was set to zero (no upgrade) and whose owner renounced, but whose implementation lets a keeper stored at slot 58 (after a 50-slot gap) move any holder's tokens to itself with settle(address,uint256); only the implementation's code checks that slot."}),
		// Power-free look-alikes of long-lived tokens.
		free(zooSpec{kind: "powerfree_unfreeze", deploy: plain("FrostToken", factoryWETH),
			behaviour: "Power-free: a holder freezes and unfreezes its own tokens (unfreeze(uint256)); the owner can do nothing to anyone's."}),
		free(zooSpec{kind: "powerfree_zero_owner", deploy: plain("ZeroOwnerToken", factoryWETH), owner: renounced,
			after:     creatorCalls("ZeroOwnerToken", "renounceOwnership"),
			behaviour: "Power-free once renounced: setOwner and a mint only the owner may call, and the owner is zero."}),
		free(zooSpec{kind: "powerfree_vesting", deploy: plain("VestingReserveToken", factoryWETH), poolPct: 50, holderPct: 30,
			behaviour: "Power-free: the owner pays out a vesting reserve the fixed total supply already counts (releaseVesting); the supply never changes."}),
		free(zooSpec{kind: "powerfree_retired_admin", deploy: plain("RetiredAdminToken", supplyOnly), owner: renounced,
			after: func(w *writer, env *zooEnv, t *zooToken) error {
				if err := w.invoke(t.creator, "RetiredAdminToken", t.token, nil, "setMarket", env.pairFor(t.token)); err != nil {
					return err
				}
				return w.invoke(t.creator, "RetiredAdminToken", t.token, nil, "renounceOwnership")
			},
			behaviour: "Power-free once renounced: a fixed-supply token that kept onlyOwner setters (a sell fee up to 100%, the fee wallet, exemptions) whose owner is zero; the fee is 0."}),
		// A token that takes from holders who never sent.
		field(zooSpec{kind: "siphon_holders", deploy: plain("SkimReflectToken", supplyOnly), owner: ownerless, noSells: true,
			behaviour: "A 'reflection' whose redistribution is a backdoor: every transfer silently moves 2% of one earlier holder's balance (neither sender nor recipient) to the collector, with no Transfer event."}),
	}
}

// deployKeeperProxy deploys KeeperProxyToken behind a TransparentProxy
// initialised with the creator as owner and the marketing wallet as
// keeper.
func deployKeeperProxy(w *writer, env *zooEnv, creator *account, supply *big.Int) (deployed, error) {
	impl, err := w.deploy(creator, "KeeperProxyToken")
	if err != nil {
		return deployed{}, err
	}
	c, err := w.artifact("KeeperProxyToken")
	if err != nil {
		return deployed{}, err
	}
	init, err := c.ABI.Pack("initialize", "Keeper Settled Dollar", "KSD", supply, creator.addr, env.accts.marketing.addr)
	if err != nil {
		return deployed{}, fmt.Errorf("devnet: pack initialize: %w", err)
	}
	proxy, err := w.deploy(creator, "TransparentProxy", impl, creator.addr, init)
	return deployed{token: proxy, implementation: impl}, err
}

// renounceKeeperProxy renounces the token's owner, then sets the proxy's
// admin to zero (changeAdmin(address), which the proxy's fallback
// answers for its admin).
func renounceKeeperProxy(w *writer, _ *zooEnv, t *zooToken) error {
	if err := w.invoke(t.creator, "KeeperProxyToken", t.token, nil, "renounceOwnership"); err != nil {
		return err
	}
	data := append(crypto.Keccak256([]byte("changeAdmin(address)"))[:4], make([]byte, 32)...) // to address(0)
	return w.send(t.creator, &t.token, nil, data, callGas, "TransparentProxy.changeAdmin by "+t.creator.name)
}
