#!/usr/bin/env node
// Compiles every Solidity file under src/ with the pinned solc (Node API,
// standard JSON) and writes one artifact per deployable contract to
// artifacts/<ContractName>.json (or to the directory given with --out).
'use strict';

const fs = require('fs');
const path = require('path');
const solc = require('solc');

// shanghai: no PUSH0-less fallback needed, no Cancun opcodes, so the
// bytecode also runs by state override on every chain the engine scans.
const EVM_VERSION = 'shanghai';
const OPTIMIZER_RUNS = 200;

const root = __dirname;
const srcDir = path.join(root, 'src');

function parseArgs(argv) {
  let out = path.join(root, 'artifacts');
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--out' && i + 1 < argv.length) {
      out = path.resolve(argv[++i]);
    } else {
      throw new Error(`unknown argument ${argv[i]} (usage: node compile.js [--out DIR])`);
    }
  }
  return { out };
}

function listSources(dir) {
  const found = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      found.push(...listSources(full));
    } else if (entry.name.endsWith('.sol')) {
      found.push(full);
    }
  }
  return found.sort();
}

// Source units are named relative to contracts/ ("src/WETH.sol") so the
// metadata hash in the bytecode does not depend on where the repo lives.
function unitName(file) {
  return path.relative(root, file).split(path.sep).join('/');
}

function findImport(importPath) {
  const candidate = path.resolve(root, importPath);
  if (!candidate.startsWith(srcDir + path.sep)) {
    return { error: `import ${importPath} is outside contracts/src` };
  }
  try {
    return { contents: fs.readFileSync(candidate, 'utf8') };
  } catch (err) {
    return { error: `import ${importPath}: ${err.message}` };
  }
}

function main() {
  const { out } = parseArgs(process.argv.slice(2));
  const sources = {};
  for (const file of listSources(srcDir)) {
    sources[unitName(file)] = { content: fs.readFileSync(file, 'utf8') };
  }
  const input = {
    language: 'Solidity',
    sources,
    settings: {
      evmVersion: EVM_VERSION,
      optimizer: { enabled: true, runs: OPTIMIZER_RUNS },
      outputSelection: {
        '*': { '*': ['abi', 'evm.bytecode.object', 'evm.deployedBytecode.object'] },
      },
    },
  };
  const output = JSON.parse(solc.compile(JSON.stringify(input), { import: findImport }));
  let failed = false;
  for (const diag of output.errors || []) {
    process.stderr.write(diag.formattedMessage || diag.message);
    if (diag.severity === 'error') failed = true;
  }
  if (failed) {
    process.exit(1);
  }

  fs.mkdirSync(out, { recursive: true });
  const written = new Map();
  for (const unit of Object.keys(output.contracts || {}).sort()) {
    for (const [name, c] of Object.entries(output.contracts[unit])) {
      const bytecode = c.evm.bytecode.object;
      if (!bytecode) continue; // interfaces and abstract contracts
      if (written.has(name)) {
        process.stderr.write(`contract name ${name} is defined in ${written.get(name)} and ${unit}\n`);
        process.exit(1);
      }
      written.set(name, unit);
      const artifact = {
        contractName: name,
        sourceName: unit,
        compiler: `solc ${solc.version()}`,
        evmVersion: EVM_VERSION,
        abi: c.abi,
        bytecode: '0x' + bytecode,
        deployedBytecode: '0x' + c.evm.deployedBytecode.object,
      };
      fs.writeFileSync(path.join(out, `${name}.json`), JSON.stringify(artifact, null, 2) + '\n');
    }
  }
  // Artifacts whose contract no longer exists would otherwise linger.
  for (const f of fs.readdirSync(out)) {
    if (f.endsWith('.json') && !written.has(f.slice(0, -5))) {
      fs.unlinkSync(path.join(out, f));
    }
  }
  process.stdout.write(`compiled ${written.size} contracts with solc ${solc.version()} (evm ${EVM_VERSION}) into ${out}\n`);
}

main();
