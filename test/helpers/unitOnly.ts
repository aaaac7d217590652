// Runs before every file of the `unit` project: a unit test opens no socket and starts no
// process, so that `npm run test:unit` stays fast and runs anywhere. Trying either fails the
// test with the reason, which moves the file to the `shared` project, not the rule.
import childProcess from 'node:child_process';
import net from 'node:net';

function refuse(what: string): never {
  throw new Error(
    `a unit test may not ${what}: drop .unit from this file's name (vitest.config.ts)`,
  );
}

net.Socket.prototype.connect = () => refuse('open a socket');
net.Server.prototype.listen = () => refuse('listen on a port');
for (const name of ['spawn', 'exec', 'execFile', 'fork', 'spawnSync', 'execSync'] as const) {
  Object.defineProperty(childProcess, name, { value: () => refuse('start a process') });
}
