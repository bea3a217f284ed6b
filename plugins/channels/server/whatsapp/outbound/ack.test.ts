import { proto } from '@whiskeysockets/baileys';
import { describe, expect, it } from 'vitest';
import { toProductAck } from './ack';

describe('toProductAck', () => {
  const Status = proto.WebMessageInfo.Status;

  it("maps Baileys' delivery steps onto the product's acks", () => {
    expect(toProductAck(Status.PENDING)).toBe(0);
    expect(toProductAck(Status.SERVER_ACK)).toBe(1);
    expect(toProductAck(Status.DELIVERY_ACK)).toBe(2);
    expect(toProductAck(Status.READ)).toBe(3);
    expect(toProductAck(Status.PLAYED)).toBe(4);
  });

  it('a failure and unknown values are no ack', () => {
    expect(toProductAck(Status.ERROR)).toBeNull();
    expect(toProductAck(9)).toBeNull();
    expect(toProductAck(null)).toBeNull();
    expect(toProductAck(undefined)).toBeNull();
  });
});
