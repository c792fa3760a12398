import { describe, expect, it } from 'vitest';
import * as ws from 'ws';
import { textFrame } from '../../src/realtime/hub';

// The fan-out writes one pre-framed buffer to every socket instead of calling ws.send per socket;
// the frame must be exactly the one ws itself would write, at each of the three length encodings.
const { Sender } = ws as unknown as {
  Sender: { frame(data: Buffer, options: Record<string, unknown>): Buffer[] };
};

describe('textFrame', () => {
  for (const length of [0, 1, 125, 126, 127, 65535, 65536, 70000]) {
    it(`matches ws's own framing for a ${length}-byte text message`, () => {
      const payload = Buffer.alloc(length, 'a');
      const ours = textFrame(payload);
      const theirs = Buffer.concat(
        Sender.frame(payload, { fin: true, opcode: 1, mask: false, readOnly: true, rsv1: false }),
      );
      expect(ours.equals(theirs)).toBe(true);
    });
  }
});
