/**
 * The SDK walkers over the billing's routes: the route contract, tenants kept apart (company B's admin
 * reaches none of A's invoices or charges) and bad input refused with a 4xx.
 */
import { badInputWalk, crossTenantWalk, ownRoutes, routeContractProblems, seedTenantFixtures } from '@balcao/plugin-sdk/testing';
import { translationProblems } from '@balcao/plugin-sdk/testing/translations';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import en from '../../ui/locales/en.json';
import es from '../../ui/locales/es.json';
import pt from '../../ui/locales/pt.json';
import tr from '../../ui/locales/tr.json';
import { billingErrors } from '../errors';
import { type BillingKit, billingKit } from '../testing/kit';

let kit: BillingKit;
beforeAll(async () => {
  kit = await billingKit();
});
afterAll(() => kit?.close());

describe('the SDK walkers over the billing routes', () => {
  it('keeps the route contract', () => {
    expect(routeContractProblems(kit.t, ownRoutes('billing'))).toEqual([]);
  });

  it('keeps tenants apart and refuses bad input', async () => {
    const fixtures = await seedTenantFixtures(kit.t);
    const tenants = await crossTenantWalk(kit.t, fixtures, ownRoutes('billing'));
    // the walk reached the invoice and charge routes with A's own rows, and saw A's marker in its list
    expect(tenants.walked.length).toBeGreaterThanOrEqual(6);
    expect(tenants.markerSeenByA).toBe(true);
    for (const found of [
      tenants.gaps,
      tenants.control,
      tenants.lists,
      tenants.reads,
      tenants.writes,
      tenants.otherWrites,
      tenants.foreignIds,
    ]) {
      expect(found).toEqual([]);
    }
    const input = await badInputWalk(kit.t, fixtures, ownRoutes('billing'));
    expect([...input.unbuildable, ...input.failures]).toEqual([]);
  }, 240_000);

  it('has every text in pt, en, es and tr, each error code’s included', () => {
    expect(translationProblems({ pt, en, es, tr })).toEqual([]);
    expect(Object.keys(billingErrors).filter((code) => !(code in pt.errors))).toEqual([]);
  });
});
