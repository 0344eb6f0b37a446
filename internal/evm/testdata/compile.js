// Compiles testdata/*.sol with the solc in SOLC_DIR (node_modules holding
// solc; default: the contracts pipeline's): runtime bytecode to
// <Name>.hex, and creation bytecode to <Name>.bin for contracts tests
// deploy. Usage: node compile.js
const fs = require('fs');
const path = require('path');
const solc = require(path.join(process.env.SOLC_DIR || '../../../contracts/node_modules', 'solc'));
const sources = {};
for (const f of fs.readdirSync(__dirname).filter(f => f.endsWith('.sol'))) {
  sources[f] = { content: fs.readFileSync(path.join(__dirname, f), 'utf8') };
}
const deployed = new Set(['QuietMintToken', 'SyncToken', 'ExcludeTrapToken', 'CappedRateToken', 'OpenRateToken', 'BusyTaxToken', 'DelegateHookToken', 'OriginGuardToken', 'KeepDustToken', 'FaucetToken', 'NoContractBuyer', 'OriginOnlySeller', 'WalletTrap', 'NoReturnToken', 'RoleToken', 'SolidlyLikeFactory', 'PricedSaleToken', 'FixedSaleToken', 'CappedIssueToken', 'HiddenMinterToken', 'RatedIssueToken', 'FixedIssueToken', 'StockToken', 'ForeignOnlyStockToken', 'PricedStockToken', 'DripStockToken', 'SelfGuardStockToken', 'KeeperToken', 'ArmedBurnToken']);
const input = { language: 'Solidity', sources, settings: { optimizer: { enabled: true, runs: 200 }, evmVersion: 'shanghai',
  outputSelection: { '*': { '*': ['evm.bytecode.object', 'evm.deployedBytecode.object'] } } } };
const out = JSON.parse(solc.compile(JSON.stringify(input)));
for (const e of out.errors || []) if (e.severity === 'error') { console.error(e.formattedMessage); process.exit(1); }
for (const cs of Object.values(out.contracts)) {
  for (const [name, c] of Object.entries(cs)) {
    if (!c.evm.deployedBytecode.object) continue; // interfaces
    fs.writeFileSync(path.join(__dirname, name + '.hex'), c.evm.deployedBytecode.object + '\n');
    if (deployed.has(name)) fs.writeFileSync(path.join(__dirname, name + '.bin'), c.evm.bytecode.object + '\n');
  }
}
