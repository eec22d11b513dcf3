// A small WebSocket client (RFC 6455) over node:net, for the WebDriver BiDi connection to
// Firefox: text messages only, no extensions. Node 20 has no WebSocket without a flag, and
// this suite needs nothing more.

import { randomBytes } from "node:crypto";
import net from "node:net";

/**
 * Opens `url` (ws://host:port/path) and resolves once the handshake is done.
 * @param {string} url
 * @param {{ onMessage: (text: string) => void, onClose: (why: string) => void }} handlers
 * @returns {Promise<{ send: (text: string) => void, close: () => void }>}
 */
export function connect(url, { onMessage, onClose }) {
  const { hostname, port, pathname, search } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname);
    const key = randomBytes(16).toString("base64");
    let buffer = Buffer.alloc(0);
    let open = false;
    /** @type {Buffer[]} */
    let pieces = [];
    let closed = false;
    const finish = (/** @type {string} */ why) => {
      if (closed) return;
      closed = true;
      socket.destroy();
      if (open) onClose(why);
      else reject(new Error(`websocket ${url}: ${why}`));
    };

    /** One frame of `opcode` with `payload`, masked as a client must. */
    const frame = (/** @type {number} */ opcode, /** @type {Buffer} */ payload) => {
      const mask = randomBytes(4);
      const length = payload.length;
      const head =
        length < 126
          ? Buffer.from([0x80 | opcode, 0x80 | length])
          : length < 65536
            ? Buffer.from([0x80 | opcode, 0x80 | 126, length >> 8, length & 0xff])
            : Buffer.concat([Buffer.from([0x80 | opcode, 0x80 | 127]), bigLength(length)]);
      const masked = Buffer.alloc(length);
      for (let i = 0; i < length; i++) masked[i] = payload[i] ^ mask[i % 4];
      socket.write(Buffer.concat([head, mask, masked]));
    };

    socket.on("connect", () => {
      socket.write(
        `GET ${pathname}${search} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nUpgrade: websocket\r\n` +
          `Connection: Upgrade\r\nSec-WebSocket-Key: ${key}\r\nSec-WebSocket-Version: 13\r\n\r\n`,
      );
    });
    socket.on("data", (chunk) => {
      buffer = Buffer.concat([buffer, chunk]);
      if (!open) {
        const end = buffer.indexOf("\r\n\r\n");
        if (end < 0) return;
        const head = buffer.subarray(0, end).toString("latin1");
        buffer = buffer.subarray(end + 4);
        if (!/^HTTP\/1\.1 101/.test(head)) {
          finish(`handshake refused: ${head.split("\r\n")[0]}`);
          return;
        }
        open = true;
        resolve({
          send: (text) => frame(0x1, Buffer.from(text, "utf8")),
          close: () => {
            if (!closed) frame(0x8, Buffer.alloc(0));
            finish("closed by us");
          },
        });
      }
      // Frames: the server's are never masked.
      while (buffer.length >= 2) {
        const fin = (buffer[0] & 0x80) !== 0;
        const opcode = buffer[0] & 0x0f;
        let length = buffer[1] & 0x7f;
        let at = 2;
        if (length === 126) {
          if (buffer.length < 4) return;
          length = buffer.readUInt16BE(2);
          at = 4;
        } else if (length === 127) {
          if (buffer.length < 10) return;
          length = Number(buffer.readBigUInt64BE(2));
          at = 10;
        }
        if (buffer.length < at + length) return;
        const payload = buffer.subarray(at, at + length);
        buffer = buffer.subarray(at + length);
        if (opcode === 0x8) {
          finish("closed by the browser");
          return;
        }
        if (opcode === 0x9) {
          frame(0xa, Buffer.from(payload));
          continue;
        }
        if (opcode === 0xa) continue;
        pieces.push(Buffer.from(payload));
        if (fin) {
          const text = Buffer.concat(pieces).toString("utf8");
          pieces = [];
          onMessage(text);
        }
      }
    });
    socket.on("error", (error) => finish(error.message));
    socket.on("close", () => finish("connection closed"));
  });
}

/** @param {number} length */
function bigLength(length) {
  const out = Buffer.alloc(8);
  out.writeBigUInt64BE(BigInt(length));
  return out;
}
