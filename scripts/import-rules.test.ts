/**
 * The architecture's import rules live in biome.json (noRestrictedImports per folder) and `npm test`
 * runs `biome lint`. This test proves each rule bites: it lints probe files, laid out like the
 * repository, in a scratch directory with a copy of biome.json, and checks that every forbidden
 * import is reported and every allowed one is not.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '..');
const biome = path.join(root, 'node_modules', '.bin', 'biome');

/** Probe files: path → the modules it imports, each marked forbidden or allowed there. */
const PROBES: Record<string, { forbidden: string[]; allowed: string[] }> = {
  'services/domain/src/probe.ts': {
    forbidden: [
      'node:fs',
      'node:fs/promises',
      'node:net',
      'node:http',
      'pg',
      'kysely',
      'fastify',
      '@fastify/multipart',
      '@eelarve/eventstore',
      '@eelarve/postgres',
      '@eelarve/postgres/testing/test-database',
      '@eelarve/projections',
      '@eelarve/gateway/app',
      '../../gateway/src/app',
    ],
    allowed: ['node:crypto', '@eelarve/shared', './decider', 'zod'],
  },
  'services/domain/src/budgets/probe.test.ts': { forbidden: ['pg', '@eelarve/eventstore'], allowed: ['vitest', '../testing', './decider'] },
  'shared/src/probe.ts': {
    forbidden: ['kysely', 'react', '@eelarve/domain', 'date-fns', '../../services/domain/src/index'],
    allowed: ['zod', 'decimal.js', './text', './contracts/common'],
  },
  'shared/src/contracts/probe.ts': { forbidden: ['../../../web/src/api/client', 'node:crypto'], allowed: ['../text', './common', 'zod'] },
  'shared/src/probe.test.ts': { forbidden: ['react', '@eelarve/domain'], allowed: ['vitest', 'fast-check', './text'] },
  'web/src/probe.ts': {
    forbidden: [
      '@eelarve/gateway',
      '@eelarve/gateway/features/users/routes',
      '@eelarve/domain',
      '@eelarve/eventstore',
      '@eelarve/postgres',
      '@eelarve/projections',
      '@eelarve/testing/server',
      'node:fs',
      'node:fs/promises',
      '../../services/gateway/src/app',
    ],
    allowed: ['@eelarve/shared', 'react', '@tanstack/react-query', './components/Modal', './features/auth/api'],
  },
  'web/src/i18n/probe.test.ts': { forbidden: ['@eelarve/gateway/app', '@eelarve/domain'], allowed: ['node:fs', 'vitest', './catalogs'] },
  'web/e2e/probe.ts': { forbidden: [], allowed: ['@eelarve/gateway/features/mail/mailbox', '@eelarve/testing/server', 'node:fs'] },
  'projections/src/probe.ts': {
    forbidden: ['@eelarve/gateway', '@eelarve/gateway/infrastructure/database', '../../services/gateway/src/app', '@eelarve/testing/server'],
    allowed: ['@eelarve/eventstore', '@eelarve/domain', 'kysely', './projector'],
  },
  'web/src/features/dashboard/Probe.tsx': {
    forbidden: ['../auth/hooks', '../documents/documents.css', '../../features/auth/api', '@eelarve/domain', 'node:path'],
    allowed: ['./DashboardPage', '../../components/Modal', '../../app/current-user', '../../grid/Grid', '@eelarve/shared', 'react'],
  },
  'web/src/features/dashboard/api/probe.ts': {
    forbidden: ['../../auth/hooks', '../../../features/roles/api'],
    allowed: ['../DashboardPage', './queries', '../../../components/Modal', '../../../api/client'],
  },
  'web/src/features/dashboard/probe.test.tsx': { forbidden: ['../auth/hooks', '@eelarve/gateway/app'], allowed: ['node:fs', 'vitest', './DashboardPage'] },
};

interface Diagnostic {
  category: string;
  location: { path: string; start: { line: number } };
}

let scratch: string;
let reported: Set<string>;

const key = (file: string, line: number) => `${file}:${line}`;
const lineOf = (file: string, module: string) => {
  const probe = PROBES[file]!;
  return [...probe.forbidden, ...probe.allowed].indexOf(module) + 1;
};

beforeAll(() => {
  scratch = mkdtempSync(path.join(os.tmpdir(), 'eelarve-import-rules-'));
  copyFileSync(path.join(root, 'biome.json'), path.join(scratch, 'biome.json'));
  for (const [file, probe] of Object.entries(PROBES)) {
    mkdirSync(path.dirname(path.join(scratch, file)), { recursive: true });
    // One side-effect import per line, so a diagnostic's line names the module.
    writeFileSync(path.join(scratch, file), `${[...probe.forbidden, ...probe.allowed].map((module) => `import '${module}';`).join('\n')}\n`);
  }
  const output = lint(scratch);
  const diagnostics = (JSON.parse(output).diagnostics as Diagnostic[]).filter((diagnostic) => diagnostic.category === 'lint/style/noRestrictedImports');
  reported = new Set(diagnostics.map((diagnostic) => key(diagnostic.location.path.replaceAll('\\', '/'), diagnostic.location.start.line)));
});

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Biome exits non-zero when it reports errors; the JSON report is on stdout either way. */
function lint(directory: string): string {
  try {
    return execFileSync(biome, ['lint', '--reporter=json', '--max-diagnostics=1000', '.'], {
      cwd: directory,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    });
  } catch (error) {
    return (error as { stdout: string }).stdout;
  }
}

describe('import rules in biome.json', () => {
  for (const [file, probe] of Object.entries(PROBES)) {
    it(`${file}: refuses ${probe.forbidden.length} imports and allows ${probe.allowed.length}`, () => {
      const refused = (module: string) => reported.has(key(file, lineOf(file, module)));
      expect(
        probe.forbidden.filter((module) => !refused(module)),
        'forbidden but not reported',
      ).toEqual([]);
      expect(probe.allowed.filter(refused), 'allowed but reported').toEqual([]);
    });
  }
});

describe('mutation hooks live in the api modules', () => {
  it('refuses useMutation in a screen of a feature and allows it in the feature api module', () => {
    const directory = mkdtempSync(path.join(os.tmpdir(), 'eelarve-mutation-rule-'));
    try {
      copyFileSync(path.join(root, 'biome.json'), path.join(directory, 'biome.json'));
      const files = {
        'web/src/features/dashboard/Screen.tsx':
          "import { useMutation, useQuery } from '@tanstack/react-query';\nexport const hooks = [useMutation, useQuery];\n",
        'web/src/features/dashboard/sections/Section.tsx': "import { useMutation } from '@tanstack/react-query';\nexport const hook = useMutation;\n",
        'web/src/features/dashboard/api/mutations.ts': "import { useMutation } from '@tanstack/react-query';\nexport const hook = useMutation;\n",
      };
      for (const [file, text] of Object.entries(files)) {
        mkdirSync(path.dirname(path.join(directory, file)), { recursive: true });
        writeFileSync(path.join(directory, file), text);
      }
      const diagnostics = (JSON.parse(lint(directory)).diagnostics as Diagnostic[]).filter(
        (diagnostic) => diagnostic.category === 'lint/style/noRestrictedImports',
      );
      const reportedFiles = [...new Set(diagnostics.map((diagnostic) => diagnostic.location.path.replaceAll('\\', '/')))].sort();
      expect(reportedFiles).toEqual(['web/src/features/dashboard/Screen.tsx', 'web/src/features/dashboard/sections/Section.tsx']);
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });
});
