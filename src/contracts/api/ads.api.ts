import {
  adActiveBody,
  adIdParams,
  adImpressionBody,
  adImpressionResult,
  adminAdDto,
  adminAdList,
  adShowingResponse,
} from '../ads.contract.ts';
import { defineRoute } from './define-route.ts';

export const adsApi = {
  all: defineRoute({ method: 'GET', path: '/api/admin/ads', response: adminAdList }),
  /** Multipart: adFormFields and the `image` and `audio` files. */
  create: defineRoute({
    method: 'POST',
    path: '/api/admin/ads',
    multipart: true,
    status: 201,
    response: adminAdDto,
  }),
  /** Multipart: adPatchFields and the `image` and `audio` files. */
  update: defineRoute({
    method: 'PATCH',
    path: '/api/admin/ads/:id',
    params: adIdParams,
    multipart: true,
    response: adminAdDto,
  }),
  setActive: defineRoute({
    method: 'PUT',
    path: '/api/admin/ads/:id/active',
    params: adIdParams,
    body: adActiveBody,
    response: adminAdDto,
  }),
  /** get-active-ads: a POST, as it writes the showing it hands out. */
  issueShowing: defineRoute({
    method: 'POST',
    path: '/api/ads/showings',
    response: adShowingResponse,
  }),
  recordImpression: defineRoute({
    method: 'POST',
    path: '/api/ads/impressions',
    body: adImpressionBody,
    response: adImpressionResult,
  }),
};
