import fs from 'node:fs';
import { SMTPServer } from 'smtp-server';

/**
 * A real SMTP server, run by the mail tests as a process of their own (smtp-receiver.ts starts,
 * kills and restarts it). Each message is read in full, then, by RECEIVER_MODE:
 *
 * - `accept`: answered 250 and written to RECEIVER_OUT as a JSON line `{kind: 'accepted', …}`;
 * - `stall`: written down as `stalled` and never answered (the test kills the process mid-send);
 * - `tempfail`: answered 451 (try again later), written down as `refused`;
 * - `reject`: answered 550 (never), written down as `refused`.
 *
 * It prints `listening` once it takes connections. No TLS: a local relay, as SMTP_URL allows.
 */

const port = Number(process.env.RECEIVER_PORT);
const out = process.env.RECEIVER_OUT as string;
const mode = process.env.RECEIVER_MODE ?? 'accept';

const write = (line: object) => fs.appendFileSync(out, `${JSON.stringify(line)}\n`);

const server = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS'],
  logger: false,
  onData(stream, session, callback) {
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('end', () => {
      const entry = {
        at: Date.now(),
        pid: process.pid,
        mailFrom: session.envelope.mailFrom ? session.envelope.mailFrom.address : null,
        rcptTo: session.envelope.rcptTo.map((r) => r.address),
        raw: Buffer.concat(chunks).toString('utf8'),
      };
      if (mode === 'stall') {
        write({ kind: 'stalled', ...entry });
        return;
      }
      if (mode === 'tempfail' || mode === 'reject') {
        write({ kind: 'refused', ...entry });
        const err = Object.assign(
          new Error(mode === 'tempfail' ? 'Mailbox busy, try again later' : 'No such mailbox here'),
          { responseCode: mode === 'tempfail' ? 451 : 550 },
        );
        callback(err);
        return;
      }
      write({ kind: 'accepted', ...entry });
      callback(null, 'Queued');
    });
  },
});

server.listen(port, '127.0.0.1', () => process.stdout.write('listening\n'));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
