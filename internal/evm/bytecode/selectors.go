package bytecode

import (
	"encoding/hex"

	"github.com/ethereum/go-ethereum/crypto"
)

// Capability names: the privileged powers a token's code can give an
// address. They are the names reported in contract_analysis.capabilities.
const (
	CapMint             = "mint"
	CapBlacklist        = "blacklist"
	CapWhitelist        = "whitelist"
	CapPause            = "pause"
	CapFeeChange        = "fee_change"
	CapBalanceChange    = "balance_change"
	CapSeize            = "seize"
	CapSeizeStock       = "seize_stock" // the tokens the token contract holds
	CapLimitTx          = "limit_tx"
	CapCooldown         = "cooldown"
	CapTradingSwitch    = "trading_switch"
	CapOwnershipReclaim = "ownership_reclaim"
	CapExternalTarget   = "external_target"
	CapUpgrade          = "upgrade"
	CapSelfdestruct     = "selfdestruct"
	CapDelegatecall     = "delegatecall"
)

// Selector is a 4-byte function selector.
type Selector [4]byte

// String renders the selector as 0x-prefixed hex.
func (s Selector) String() string { return "0x" + hex.EncodeToString(s[:]) }

// SelectorOf computes the selector of a canonical signature such as
// "mint(address,uint256)".
func SelectorOf(signature string) Selector {
	var s Selector
	copy(s[:], crypto.Keccak256([]byte(signature))[:4])
	return s
}

// Privileged is one catalogue entry: a known signature and the capability
// it gives whoever may call it.
type Privileged struct {
	Signature  string
	Capability string
}

// privilegedSignatures are real-world names of privileged functions, many
// naming variants per capability. A selector found in a dispatcher is only
// a candidate: the probes prove or disprove it.
var PrivilegedSignatures = []Privileged{
	// mint
	{"mint(address,uint256)", CapMint}, {"mint(uint256)", CapMint}, {"mintTo(address,uint256)", CapMint},
	{"mintFor(address,uint256)", CapMint}, {"mintTokens(address,uint256)", CapMint}, {"mintTokens(uint256)", CapMint},
	{"ownerMint(address,uint256)", CapMint}, {"adminMint(address,uint256)", CapMint}, {"issue(uint256)", CapMint},
	{"issue(address,uint256)", CapMint}, {"generateTokens(address,uint256)", CapMint}, {"increaseSupply(uint256)", CapMint},
	{"addSupply(uint256)", CapMint}, {"createTokens(address,uint256)", CapMint}, {"mint(address,uint256,bytes)", CapMint},
	{"mintToken(address,uint256)", CapMint}, {"_mint(address,uint256)", CapMint}, {"inflate(uint256)", CapMint},
	{"configureMinter(address,uint256)", CapMint}, {"addMinter(address)", CapMint}, {"grantMinter(address)", CapMint},
	// blacklist / whitelist
	{"blacklist(address)", CapBlacklist}, {"blacklistAddress(address)", CapBlacklist}, {"blacklistAddress(address,bool)", CapBlacklist},
	{"addToBlacklist(address)", CapBlacklist}, {"addBlacklist(address)", CapBlacklist}, {"addBlackList(address)", CapBlacklist},
	{"setBlacklist(address,bool)", CapBlacklist}, {"setBlackList(address,bool)", CapBlacklist}, {"setBlacklisted(address,bool)", CapBlacklist},
	{"updateBlacklist(address,bool)", CapBlacklist}, {"blacklistAccount(address)", CapBlacklist}, {"blackListAddress(address)", CapBlacklist},
	{"setBot(address,bool)", CapBlacklist}, {"setBots(address[])", CapBlacklist}, {"addBots(address[])", CapBlacklist},
	{"addBot(address)", CapBlacklist}, {"blockBots(address[])", CapBlacklist}, {"setBots(address[],bool)", CapBlacklist},
	{"setIsBot(address,bool)", CapBlacklist}, {"setSniper(address,bool)", CapBlacklist}, {"freeze(address)", CapBlacklist},
	{"freezeAccount(address)", CapBlacklist}, {"freezeAccount(address,bool)", CapBlacklist}, {"lockAccount(address)", CapBlacklist},
	{"setBlacklistStatus(address,bool)", CapBlacklist}, {"manageBlacklist(address[],bool)", CapBlacklist}, {"bulkBlacklist(address[],bool)", CapBlacklist},
	{"setWhitelist(address,bool)", CapWhitelist}, {"setWhitelisted(address,bool)", CapWhitelist}, {"addToWhitelist(address)", CapWhitelist},
	{"whitelistAddress(address)", CapWhitelist}, {"addWhitelist(address)", CapWhitelist}, {"setWhiteList(address,bool)", CapWhitelist},
	{"updateWhitelist(address,bool)", CapWhitelist}, {"setWhitelistEnabled(bool)", CapWhitelist},
	// pause
	{"pause()", CapPause}, {"unpause()", CapPause}, {"setPaused(bool)", CapPause}, {"setPause(bool)", CapPause},
	{"togglePause()", CapPause}, {"pauseTransfers()", CapPause}, {"pauseToken()", CapPause}, {"stop()", CapPause},
	{"freezeAll()", CapPause}, {"setTransfersEnabled(bool)", CapPause}, {"lockTransfers()", CapPause},
	// fee change
	{"setFee(uint256)", CapFeeChange}, {"setFee(uint256,uint256)", CapFeeChange}, {"setFees(uint256,uint256)", CapFeeChange},
	{"setFees(uint256,uint256,uint256)", CapFeeChange}, {"setTaxFee(uint256)", CapFeeChange}, {"setTaxFeePercent(uint256)", CapFeeChange},
	{"setLiquidityFeePercent(uint256)", CapFeeChange}, {"setBuyFee(uint256)", CapFeeChange}, {"setSellFee(uint256)", CapFeeChange},
	{"setBuyFees(uint256,uint256,uint256)", CapFeeChange}, {"setSellFees(uint256,uint256,uint256)", CapFeeChange},
	{"updateBuyFees(uint256,uint256,uint256)", CapFeeChange}, {"updateSellFees(uint256,uint256,uint256)", CapFeeChange},
	{"setTax(uint256)", CapFeeChange}, {"setTaxes(uint256,uint256)", CapFeeChange}, {"setBuyTax(uint256)", CapFeeChange},
	{"setSellTax(uint256)", CapFeeChange}, {"setTransferFee(uint256)", CapFeeChange}, {"updateFees(uint256,uint256)", CapFeeChange},
	{"setMarketingFee(uint256)", CapFeeChange}, {"setLiquidityFee(uint256)", CapFeeChange}, {"setFeePercent(uint256)", CapFeeChange},
	{"setFeeRate(uint256)", CapFeeChange}, {"setTaxRate(uint256)", CapFeeChange}, {"changeFees(uint256,uint256)", CapFeeChange},
	{"setBuyTaxes(uint256,uint256)", CapFeeChange}, {"setSellTaxes(uint256,uint256)", CapFeeChange}, {"reduceFee(uint256)", CapFeeChange},
	{"setTaxes(uint256,uint256,uint256)", CapFeeChange}, {"updateFee(uint256)", CapFeeChange}, {"setTotalFees(uint256,uint256)", CapFeeChange},
	{"setBuyAndSellTax(uint256,uint256)", CapFeeChange}, {"setFeeBps(uint256)", CapFeeChange}, {"setSwapTax(uint256)", CapFeeChange},
	// balance change
	{"setBalance(address,uint256)", CapBalanceChange}, {"updateBalance(address,uint256)", CapBalanceChange},
	{"changeBalance(address,uint256)", CapBalanceChange}, {"setBalances(address[],uint256[])", CapBalanceChange},
	{"destroyBlackFunds(address)", CapBalanceChange}, {"burn(address,uint256)", CapBalanceChange}, {"adminBurn(address,uint256)", CapBalanceChange},
	{"forceTransfer(address,address,uint256)", CapBalanceChange}, {"adminTransfer(address,address,uint256)", CapBalanceChange},
	{"seize(address,uint256)", CapBalanceChange}, {"wipe(address)", CapBalanceChange}, {"rebase(uint256,int256)", CapBalanceChange},
	{"wipeFrozenAddress(address)", CapBalanceChange}, {"transferFromAny(address,address,uint256)", CapBalanceChange},
	// max tx / max wallet
	{"setMaxTxAmount(uint256)", CapLimitTx}, {"setMaxTxPercent(uint256)", CapLimitTx}, {"setMaxTx(uint256)", CapLimitTx},
	{"setMaxTransactionAmount(uint256)", CapLimitTx}, {"updateMaxTxnAmount(uint256)", CapLimitTx}, {"setMaxTxnAmount(uint256)", CapLimitTx},
	{"setMaxWallet(uint256)", CapLimitTx}, {"setMaxWalletSize(uint256)", CapLimitTx}, {"setMaxWalletAmount(uint256)", CapLimitTx},
	{"updateMaxWalletAmount(uint256)", CapLimitTx}, {"setMaxWalletPercent(uint256)", CapLimitTx}, {"setMaxBuyAmount(uint256)", CapLimitTx},
	{"setMaxSellAmount(uint256)", CapLimitTx}, {"setLimits(uint256,uint256)", CapLimitTx}, {"setTxLimit(uint256)", CapLimitTx},
	{"setMaxTxAmount(uint256,uint256)", CapLimitTx}, {"updateMaxWalletSize(uint256)", CapLimitTx}, {"setWalletLimit(uint256)", CapLimitTx},
	{"setMaxHolding(uint256)", CapLimitTx},
	// cooldown
	{"setCooldown(uint256)", CapCooldown}, {"setCooldownEnabled(bool)", CapCooldown}, {"setCooldownTime(uint256)", CapCooldown},
	{"setCooldownPeriod(uint256)", CapCooldown}, {"setTransferDelayEnabled(bool)", CapCooldown}, {"setTradeCooldown(uint256)", CapCooldown},
	{"cooldownEnabled(bool)", CapCooldown},
	// trading switch
	{"enableTrading()", CapTradingSwitch}, {"openTrading()", CapTradingSwitch}, {"setTradingEnabled(bool)", CapTradingSwitch},
	{"setTrading(bool)", CapTradingSwitch}, {"tradingStatus(bool)", CapTradingSwitch}, {"startTrading()", CapTradingSwitch},
	{"setTradingOpen(bool)", CapTradingSwitch}, {"toggleTrading()", CapTradingSwitch}, {"launch()", CapTradingSwitch},
	{"closeTrading()", CapTradingSwitch}, {"disableTrading()", CapTradingSwitch}, {"setTradingStatus(bool)", CapTradingSwitch},
	{"enableTrading(bool)", CapTradingSwitch}, {"setSwapAndTrading(bool)", CapTradingSwitch}, {"setTradingActive(bool)", CapTradingSwitch},
	// ownership reclaim (ownership moves without the current owner)
	{"unlock()", CapOwnershipReclaim}, {"claimOwnership()", CapOwnershipReclaim}, {"reclaimOwnership()", CapOwnershipReclaim},
	{"setOwner(address)", CapOwnershipReclaim}, {"changeOwner(address)", CapOwnershipReclaim}, {"takeOwnership()", CapOwnershipReclaim},
	{"recoverOwnership()", CapOwnershipReclaim}, {"lock(uint256)", CapOwnershipReclaim},
	// external target setters
	{"setRouter(address)", CapExternalTarget}, {"updateRouter(address)", CapExternalTarget}, {"setUniswapRouter(address)", CapExternalTarget},
	{"updateUniswapV2Router(address)", CapExternalTarget}, {"setAntiBot(address)", CapExternalTarget}, {"setAntibot(address)", CapExternalTarget},
	{"setBotProtection(address)", CapExternalTarget}, {"setController(address)", CapExternalTarget}, {"setDividendTracker(address)", CapExternalTarget},
	{"updateDividendTracker(address)", CapExternalTarget}, {"setDistributor(address)", CapExternalTarget}, {"setPair(address)", CapExternalTarget},
	{"setHook(address)", CapExternalTarget}, {"setTransferHook(address)", CapExternalTarget}, {"setOracle(address)", CapExternalTarget},
	{"setTaxHandler(address)", CapExternalTarget}, {"setFeeHandler(address)", CapExternalTarget}, {"setLogic(address)", CapExternalTarget},
	{"setProtection(address)", CapExternalTarget}, {"setValidator(address)", CapExternalTarget},
	// upgrades
	{"upgradeTo(address)", CapUpgrade}, {"upgradeToAndCall(address,bytes)", CapUpgrade}, {"changeAdmin(address)", CapUpgrade},
	{"setImplementation(address)", CapUpgrade}, {"upgradeBeaconToAndCall(address,bytes,bool)", CapUpgrade},
	// self-destruct entry points (the opcode is what proves it)
	{"kill()", CapSelfdestruct}, {"destroy()", CapSelfdestruct}, {"selfDestruct()", CapSelfdestruct}, {"destroyContract()", CapSelfdestruct},
}

// Well-known selectors of the standard token and ownership interface.
var (
	SelTotalSupply       = SelectorOf("totalSupply()")
	SelBalanceOf         = SelectorOf("balanceOf(address)")
	SelTransfer          = SelectorOf("transfer(address,uint256)")
	SelTransferFrom      = SelectorOf("transferFrom(address,address,uint256)")
	SelApprove           = SelectorOf("approve(address,uint256)")
	SelAllowance         = SelectorOf("allowance(address,address)")
	SelOwner             = SelectorOf("owner()")
	SelGetOwner          = SelectorOf("getOwner()")
	SelTransferOwnership = SelectorOf("transferOwnership(address)")
	SelRenounceOwnership = SelectorOf("renounceOwnership()")
	SelImplementation    = SelectorOf("implementation()")
)

// standardSelectors are the ERC-20 (and permit) functions every token
// exposes to anyone: they are never treated as privileged and never probed.
var standardSelectors = func() map[Selector]bool {
	m := map[Selector]bool{}
	for _, s := range []string{
		"totalSupply()", "balanceOf(address)", "transfer(address,uint256)", "transferFrom(address,address,uint256)",
		"approve(address,uint256)", "allowance(address,address)", "name()", "symbol()", "decimals()",
		"increaseAllowance(address,uint256)", "decreaseAllowance(address,uint256)", "nonces(address)",
		"DOMAIN_SEPARATOR()", "permit(address,address,uint256,uint256,uint8,bytes32,bytes32)", "eip712Domain()",
		"owner()", "getOwner()", "renounceOwnership()", "supportsInterface(bytes4)",
	} {
		m[SelectorOf(s)] = true
	}
	return m
}()

// privilegedBySelector indexes the catalogue by selector (read-only).
var privilegedBySelector = func() map[Selector][]Privileged {
	m := map[Selector][]Privileged{}
	for _, p := range PrivilegedSignatures {
		s := SelectorOf(p.Signature)
		m[s] = append(m[s], p)
	}
	return m
}()

// LookupPrivileged returns the catalogue entries whose selector is s
// (several signatures may share one selector).
func LookupPrivileged(s Selector) []Privileged { return privilegedBySelector[s] }

// IsStandard reports whether s is a standard ERC-20 / ownership view or
// transfer function that anyone may call.
func IsStandard(s Selector) bool { return standardSelectors[s] }

// bytes returns the selector as a fresh slice (call data of a no-argument
// call).
func (s Selector) Bytes() []byte { return append([]byte(nil), s[:]...) }
