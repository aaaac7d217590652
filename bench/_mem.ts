import { generateSandboxData } from '../src/sandbox/index.js';
import { startScript } from './procs.js';
import { memoryRuns } from './watches.js';
const root = new URL('..', import.meta.url).pathname;
const r = await memoryRuns(true, generateSandboxData(11), { name: 'ours', cwd: root, script: startScript(root) }, (l) => console.log(l));
console.log(JSON.stringify(r, null, 1));
