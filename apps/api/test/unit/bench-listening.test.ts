import { spawn } from 'node:child_process';
import net from 'node:net';
import { once } from 'node:events';
import { afterAll, describe, expect, it } from 'vitest';
import { listensOn } from '../../bench/listening.js';
import { freePort } from '../../cluster/bed/ports.js';

/**
 * The bench's check that its API child, not another process, holds the port it answered on: a
 * port found free can be taken by another suite's server before the child binds it.
 */
const onLinux = process.platform === 'linux';
const cleanups: Array<() => void> = [];
afterAll(() => {
  for (const cleanup of cleanups) cleanup();
});

describe.runIf(onLinux)('listensOn', () => {
  it('names the process that listens on a port, and no other', async () => {
    const mine = net.createServer();
    mine.listen(0, '127.0.0.1');
    await once(mine, 'listening');
    cleanups.push(() => mine.close());
    const myPort = (mine.address() as net.AddressInfo).port;

    const other = spawn(
      process.execPath,
      ['-e', "const s=require('net').createServer().listen(0,'127.0.0.1',()=>console.log(s.address().port))"],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    cleanups.push(() => other.kill());
    const [line] = (await once(other.stdout as NodeJS.ReadableStream, 'data')) as [Buffer];
    const otherPort = Number(line.toString().trim());

    expect(listensOn(process.pid, myPort)).toBe(true);
    expect(listensOn(process.pid, otherPort)).toBe(false);
    expect(listensOn(other.pid as number, otherPort)).toBe(true);
    expect(listensOn(other.pid as number, myPort)).toBe(false);
  });

  it('says no when nothing listens on the port', async () => {
    expect(listensOn(process.pid, await freePort())).toBe(false);
  });
});
