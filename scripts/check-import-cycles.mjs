// Fails when modules import each other in a circle, across every workspace. It resolves each
// import the way TypeScript does for that workspace's tsconfig, so `./x.js` finds `x.ts` and
// `@cloud-classroom/shared/x` finds the shared source.
import path from 'node:path';
import ts from 'typescript';

const root = path.dirname(path.dirname(new URL(import.meta.url).pathname));
const projects = [
  'packages/shared/tsconfig.test.json',
  'apps/server/tsconfig.test.json',
  'apps/web/tsconfig.json',
  'e2e/tsconfig.json',
  'bench/tsconfig.json',
];

const isOurs = (file) => !file.includes('/node_modules/') && !file.endsWith('.d.ts');
const edges = new Map();

for (const project of projects) {
  const parsed = ts.getParsedCommandLineOfConfigFile(path.join(root, project), {}, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
      throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
    },
  });
  for (const file of parsed.fileNames.filter(isOurs)) {
    const { importedFiles } = ts.preProcessFile(ts.sys.readFile(file) ?? '', true, true);
    const targets = edges.get(file) ?? new Set();
    for (const { fileName } of importedFiles) {
      const resolved = ts.resolveModuleName(fileName, file, parsed.options, ts.sys).resolvedModule?.resolvedFileName;
      if (resolved !== undefined && isOurs(resolved)) targets.add(path.resolve(resolved));
    }
    edges.set(path.resolve(file), targets);
  }
}

// Tarjan's strongly connected components: any component of two or more modules is a cycle.
let index = 0;
const indices = new Map();
const lowLinks = new Map();
const stack = [];
const onStack = new Set();
const cycles = [];

function visit(file) {
  indices.set(file, index);
  lowLinks.set(file, index);
  index += 1;
  stack.push(file);
  onStack.add(file);
  for (const target of edges.get(file) ?? []) {
    if (!indices.has(target)) {
      visit(target);
      lowLinks.set(file, Math.min(lowLinks.get(file), lowLinks.get(target)));
    } else if (onStack.has(target)) {
      lowLinks.set(file, Math.min(lowLinks.get(file), indices.get(target)));
    }
  }
  if (lowLinks.get(file) === indices.get(file)) {
    const component = [];
    let member;
    do {
      member = stack.pop();
      onStack.delete(member);
      component.push(member);
    } while (member !== file);
    if (component.length > 1 || edges.get(file)?.has(file)) cycles.push(component);
  }
}

for (const file of edges.keys()) if (!indices.has(file)) visit(file);

if (cycles.length > 0) {
  for (const cycle of cycles) {
    console.error(`import cycle: ${cycle.map((file) => path.relative(root, file)).join(' ↔ ')}`);
  }
  process.exit(1);
}
console.log(`no import cycles in ${edges.size} modules`);
