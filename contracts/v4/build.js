#!/usr/bin/env node
// Compiles the real Uniswap V4 PoolManager (npm @uniswap/v4-core) and
// StateView (npm @uniswap/v4-periphery) from their published sources with
// the solc version and settings the packages pin in foundry.toml (0.8.26,
// via IR, cancun, 44444444 optimizer runs, no metadata hash), through
// solc's Node API with standard JSON. The output is never committed: it
// goes to the directory given (git-ignored), one artifact per contract in
// the same shape as contracts/artifacts.
//
// usage: node build.js --modules DIR/node_modules --out DIR (build.sh runs it)
'use strict';

const fs = require('fs');
const path = require('path');

function parseArgs(argv) {
  const a = {};
  for (let i = 0; i < argv.length; i += 2) {
    if (!['--modules', '--out'].includes(argv[i]) || i + 1 >= argv.length) {
      throw new Error(`usage: node build.js --modules DIR --out DIR (got ${argv[i]})`);
    }
    a[argv[i].slice(2)] = path.resolve(argv[i + 1]);
  }
  if (!a.modules || !a.out) throw new Error('usage: node build.js --modules DIR --out DIR');
  return a;
}

// The settings each package's foundry.toml pins (profile.default).
const SETTINGS = {
  evmVersion: 'cancun',
  viaIR: true,
  optimizer: { enabled: true, runs: 44444444 },
  metadata: { bytecodeHash: 'none' },
  outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object', 'evm.deployedBytecode.object'] } },
};

// Each target: the package, its entry source, the contract, and the
// package's remappings (remappings.txt) as import prefixes.
function targets(modules) {
  const core = path.join(modules, '@uniswap/v4-core');
  const periphery = path.join(modules, '@uniswap/v4-periphery');
  return [
    {
      name: 'PoolManager', root: core, entry: 'src/PoolManager.sol',
      remap: { 'solmate/': 'lib/solmate/', '@openzeppelin/': 'lib/openzeppelin-contracts/' },
    },
    {
      name: 'StateView', root: periphery, entry: 'src/lens/StateView.sol',
      remap: { '@uniswap/v4-core/': 'lib/v4-core/', 'solmate/': 'lib/v4-core/lib/solmate/' },
    },
  ];
}

function compile(solc, t) {
  const resolve = (p) => {
    for (const [from, to] of Object.entries(t.remap)) {
      if (p.startsWith(from)) return path.join(t.root, to, p.slice(from.length));
    }
    return path.join(t.root, p);
  };
  const findImport = (p) => {
    try {
      return { contents: fs.readFileSync(resolve(p), 'utf8') };
    } catch (err) {
      return { error: `import ${p}: ${err.message}` };
    }
  };
  const input = {
    language: 'Solidity',
    sources: { [t.entry]: { content: fs.readFileSync(path.join(t.root, t.entry), 'utf8') } },
    settings: SETTINGS,
  };
  const output = JSON.parse(solc.compile(JSON.stringify(input), { import: findImport }));
  const errors = (output.errors || []).filter((d) => d.severity === 'error');
  if (errors.length) {
    throw new Error(`${t.name}: ${errors.map((d) => d.formattedMessage || d.message).join('\n')}`);
  }
  const c = output.contracts[t.entry][t.name];
  const pkg = JSON.parse(fs.readFileSync(path.join(t.root, 'package.json'), 'utf8'));
  return {
    contractName: t.name,
    sourceName: `${pkg.name}@${pkg.version}/${t.entry}`,
    compiler: `solc ${solc.version()}`,
    evmVersion: SETTINGS.evmVersion,
    abi: c.abi,
    bytecode: '0x' + c.evm.bytecode.object,
    deployedBytecode: '0x' + c.evm.deployedBytecode.object,
  };
}

function main() {
  const { modules, out } = parseArgs(process.argv.slice(2));
  const solc = require(path.join(modules, 'solc'));
  fs.mkdirSync(out, { recursive: true });
  for (const t of targets(modules)) {
    const started = Date.now();
    const artifact = compile(solc, t);
    fs.writeFileSync(path.join(out, `${t.name}.json`), JSON.stringify(artifact) + '\n');
    process.stdout.write(`compiled ${t.name} (${artifact.sourceName}) with ${artifact.compiler} in ${((Date.now() - started) / 1000).toFixed(1)}s\n`);
  }
}

main();
