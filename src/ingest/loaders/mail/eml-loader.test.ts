import { describe, expect, it } from 'vitest';
import { emlLoader } from './eml-loader.ts';

const CRLF = '\r\n';

describe('emlLoader', () => {
  it('reads the HTML body of a newsletter and leaves the pictures it shows in place out, saying why', async () => {
    const png = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex').toString('base64');
    const mail = [
      'From: news@example.org',
      'Subject: =?utf-8?B?TmV3c2xldHRlciDigJQgRGVjZW1iZXI=?=',
      'Message-ID: <news-12@example.org>',
      'MIME-Version: 1.0',
      'Content-Type: multipart/related; boundary="rel"',
      '',
      '--rel',
      'Content-Type: text/html; charset=utf-8',
      '',
      '<html><body><h1>Harbour news</h1><img src="cid:logo@x"><blockquote><p>Earlier: the crane is fixed.</p></blockquote><p>The new quay opens in May.</p></body></html>',
      '--rel',
      'Content-Type: image/png',
      'Content-ID: <logo@x>',
      'Content-Transfer-Encoding: base64',
      '',
      png,
      '--rel--',
      '',
    ].join(CRLF);
    const doc = await emlLoader.load(Buffer.from(mail), '/in/news.eml');
    expect(doc.title).toBe('Newsletter — December');
    expect(doc.attachments).toEqual([]);
    expect(doc.skippedAttachments).toEqual([{ name: 'attachment-1', reason: 'a picture shown in the message body' }]);
    // The header block first, then the HTML as HTML: its heading a heading, the quoted reply kept as text.
    expect(doc.blocks).toEqual([
      { kind: 'text', text: 'From: news@example.org\nSubject: Newsletter — December' },
      { kind: 'heading', level: 1, text: 'Harbour news' },
      { kind: 'text', text: 'Earlier: the crane is fixed.' },
      { kind: 'text', text: 'The new quay opens in May.' },
    ]);
  });

  it('names attachments safely and uniquely, whatever the sender called them', async () => {
    const part = (name: string) =>
      [
        '--b',
        `Content-Type: text/plain; name="${name}"`,
        `Content-Disposition: attachment; filename="${name}"`,
        '',
        'x',
      ].join(CRLF);
    const mail = [
      'Subject: Names',
      'Content-Type: multipart/mixed; boundary="b"',
      '',
      '--b',
      'Content-Type: text/plain',
      '',
      'Body.',
    ]
      .concat([part('../../etc/passwd.txt'), part('notes.txt'), part('NOTES.txt'), '--b--', ''])
      .join(CRLF);
    const doc = await emlLoader.load(Buffer.from(mail), '/in/names.eml');
    expect(doc.attachments?.map((attachment) => attachment.name)).toEqual([
      '_.._etc_passwd.txt',
      'notes.txt',
      'NOTES (2).txt',
    ]);
  });
});
