import { once } from 'node:events';
import { existsSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findUserById } from '@eelarve/projections/accounts/queries';
import { readModels } from '../src/infrastructure/database';
import { extractLink, extractToken, listMail, waitForMail } from '../src/features/mail/mailbox';
import { Outbox } from '../src/features/mail/outbox';
import { emailChangedMail } from '../src/features/mail/templates';
import { sendRegistrationConfirmation } from '../src/features/registration/confirmation';
import { findValidToken } from '../src/features/registration/tokens';
import { startTestServer, type TestServer } from '@eelarve/testing/server';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ listen: false });
  await server.app.ready();
});
afterAll(async () => server?.close());

describe('mail outbox without SMTP', () => {
  it('writes the registration confirmation as an .eml file with an absolute, single-purpose link', async () => {
    const me = (
      await server.app.inject({ method: 'POST', url: '/initial/auth/login', payload: { username: server.admin.email, password: server.admin.password } })
    ).json();
    const user = (await findUserById(readModels(server.app.db), me.id))!;
    await sendRegistrationConfirmation(server.app, {
      userId: user.id,
      email: 'Jaan.Tamm@example.com',
      name: 'Jaan Tõnisson <b>',
      organizationId: user.organization_id,
    });
    const mail = await waitForMail(server.app.config.dataDir, 'jaan.tamm@example.com');
    expect(mail.subject).toBe('Eelarve: kinnita oma konto');
    expect(mail.text).toContain('Tere, Jaan Tõnisson <b>!');
    expect(mail.html).toContain('Jaan Tõnisson &lt;b&gt;');
    expect(mail.from).toContain('no-reply@eelarve.local');
    const link = extractLink(mail, '/confirm');
    expect(link.startsWith('http://localhost/confirm?token=')).toBe(true);
    const token = extractToken(mail, '/confirm');
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(await findValidToken(server.app.db, token, 'REGISTRATION')).toMatchObject({ userId: user.id, purpose: 'REGISTRATION' });
    // Delivered mail leaves nothing behind: the bodies carry single-use links.
    await server.app.mail.settled();
    expect(await server.app.db.selectFrom('operational.mail_outbox').selectAll().execute()).toHaveLength(0);
    const sent = await server.app.db.selectFrom('operational.registration_confirmations').selectAll().where('user_id', '=', user.id).executeTakeFirst();
    expect(sent?.sent_at).toBeInstanceOf(Date);
    expect((await listMail(server.app.config.dataDir)).length).toBeGreaterThanOrEqual(1);
  });
});

/** Just enough of an SMTP server to receive messages. */
async function fakeSmtpServer() {
  const received: Array<{ from: string; to: string[]; data: string }> = [];
  const server = net.createServer((socket) => {
    let buffer = '';
    let inData = false;
    let current = { from: '', to: [] as string[], data: '' };
    socket.write('220 fake ESMTP\r\n');
    socket.on('data', (chunk) => {
      buffer += chunk.toString('utf8');
      for (;;) {
        if (inData) {
          const end = buffer.indexOf('\r\n.\r\n');
          if (end < 0) return;
          current.data = buffer.slice(0, end);
          buffer = buffer.slice(end + 5);
          inData = false;
          received.push(current);
          current = { from: '', to: [], data: '' };
          socket.write('250 OK queued\r\n');
          continue;
        }
        const newline = buffer.indexOf('\r\n');
        if (newline < 0) return;
        const line = buffer.slice(0, newline);
        buffer = buffer.slice(newline + 2);
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === 'EHLO' || verb === 'HELO') socket.write('250 fake\r\n');
        else if (verb === 'MAIL') {
          current.from = line;
          socket.write('250 OK\r\n');
        } else if (verb === 'RCPT') {
          current.to.push(line);
          socket.write('250 OK\r\n');
        } else if (verb === 'DATA') {
          inData = true;
          socket.write('354 go ahead\r\n');
        } else if (verb === 'QUIT') {
          socket.end('221 bye\r\n');
        } else socket.write('250 OK\r\n');
      }
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address() as net.AddressInfo;
  return { url: `smtp://127.0.0.1:${address.port}`, received, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

describe('mail outbox with SMTP', () => {
  it('hands messages to the SMTP server and writes no file', async () => {
    const smtp = await fakeSmtpServer();
    const withSmtp = await startTestServer({ listen: false, config: { mail: { smtpUrl: smtp.url, from: 'Eelarve <no-reply@eelarve.test>' } } });
    try {
      await withSmtp.app.ready();
      await withSmtp.app.mail.enqueue(emailChangedMail('en', { to: 'old@example.com', name: 'Mari', newEmail: 'new@example.com' }));
      await withSmtp.app.mail.settled();
      expect(smtp.received).toHaveLength(1);
      expect(smtp.received[0]!.from).toContain('no-reply@eelarve.test');
      expect(smtp.received[0]!.to.join()).toContain('old@example.com');
      expect(smtp.received[0]!.data).toContain('Subject: Eelarve: e-mail address changed');
      expect(existsSync(path.join(withSmtp.app.config.dataDir, 'mail'))).toBe(false);
    } finally {
      await withSmtp.close();
      await smtp.close();
    }
  });
});

describe('mail outbox failures', () => {
  it('keeps a message that could not be delivered and retries it later', async () => {
    let calls = 0;
    const outbox = new Outbox(server.app.db, server.app.config, server.app.log, async () => {
      calls += 1;
      throw new Error('mail server down');
    });
    await outbox.enqueue({ to: 'retry@example.com', subject: 'retry', text: 'text', html: '<p>html</p>' });
    await outbox.settled();
    await outbox.close();
    expect(calls).toBe(1);
    const [row] = await server.app.db.selectFrom('operational.mail_outbox').selectAll().where('recipient', '=', 'retry@example.com').execute();
    expect(row).toMatchObject({ attempts: 1, last_error: 'mail server down' });
    expect(row!.next_attempt_at.getTime()).toBeGreaterThan(Date.now() + 30_000);
    await server.app.db.deleteFrom('operational.mail_outbox').where('recipient', '=', 'retry@example.com').execute();
  });
});
