/**
 * Compiles the demo token (and the tests' own contracts) from Solidity source with the solc npm package, once per
 * source version: the artifact is cached under .cache/contracts keyed by the source hash, never committed.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import type { Abi, Hex } from 'viem';
import { loadDemoPackage } from './demo-packages';

const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
export const tokenSourcePath = path.join(projectRoot, 'resources/contracts/DemoUSDC.sol');
const cacheDir = path.join(projectRoot, '.cache/contracts');

export interface CompiledContract {
  abi: Abi;
  bytecode: Hex;
}

const artifactSchema = z.object({ abi: z.array(z.unknown()), bytecode: z.string().regex(/^0x[0-9a-f]+$/) });

const solcOutputSchema = z.object({
  errors: z.array(z.object({ severity: z.string(), formattedMessage: z.string() })).optional(),
  contracts: z
    .record(
      z.string(),
      z.record(
        z.string(),
        z.object({
          abi: z.array(z.unknown()),
          evm: z.object({ bytecode: z.object({ object: z.string() }) }),
        }),
      ),
    )
    .optional(),
});

function compileWithSolc(fileName: string, contractName: string, source: string): CompiledContract {
  const solc = loadDemoPackage('solc') as { compile(input: string): string };
  const input = {
    language: 'Solidity',
    sources: { [fileName]: { content: source } },
    settings: {
      optimizer: { enabled: true, runs: 200 },
      outputSelection: { '*': { [contractName]: ['abi', 'evm.bytecode.object'] } },
    },
  };
  const output = solcOutputSchema.parse(JSON.parse(solc.compile(JSON.stringify(input))));
  const errors = (output.errors ?? []).filter((e) => e.severity === 'error');
  if (errors.length > 0) {
    throw new Error(`${fileName} does not compile:\n${errors.map((e) => e.formattedMessage).join('\n')}`);
  }
  const contract = output.contracts?.[fileName]?.[contractName];
  if (!contract) throw new Error(`solc produced no ${contractName} contract from ${fileName}`);
  return { abi: contract.abi as Abi, bytecode: `0x${contract.evm.bytecode.object}` };
}

/**
 * Returns a contract's ABI and creation bytecode from the Solidity file at `sourcePath`, compiling only when the
 * source changed since the last build.
 */
export function loadContract(sourcePath: string, contractName: string): CompiledContract {
  const source = readFileSync(sourcePath, 'utf8');
  const hash = createHash('sha256').update(source).digest('hex').slice(0, 16);
  const artifactPath = path.join(cacheDir, `${contractName}-${hash}.json`);
  if (existsSync(artifactPath)) {
    const cached = artifactSchema.safeParse(JSON.parse(readFileSync(artifactPath, 'utf8')));
    if (cached.success) return { abi: cached.data.abi as Abi, bytecode: cached.data.bytecode as Hex };
  }
  const compiled = compileWithSolc(path.basename(sourcePath), contractName, source);
  mkdirSync(cacheDir, { recursive: true });
  // Write then rename so a concurrent reader never sees a half-written artifact.
  const temporary = `${artifactPath}.${process.pid}.tmp`;
  writeFileSync(temporary, JSON.stringify(compiled));
  renameSync(temporary, artifactPath);
  return compiled;
}

/** The demo token's ABI and bytecode (its constructor takes the EIP-712 name and version). */
export function loadDemoToken(): CompiledContract {
  return loadContract(tokenSourcePath, 'DemoUSDC');
}
