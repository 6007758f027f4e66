import type { Dict, DictBody, DictDetail, DictDetailBody, DictDetailUpdateBody, DictUpdateBody } from '@cloud-classroom/shared/dicts';
import { listQuery } from '../../components/list-page/list-query';
import { http, type CallOptions } from '../../lib/http-client';

export const dictsKeys = { all: ['dicts'] as const, details: ['dictDetails'] as const };

export const dictList = listQuery<Dict>(dictsKeys.all, 'api/dict');
/** A dictionary's entries: filter by `dictName`. */
export const dictDetailList = listQuery<DictDetail>(dictsKeys.details, 'api/dictDetail');

export function createDict(body: DictBody, options?: CallOptions): Promise<void> {
  return http.post('api/dict', body, options);
}

export function updateDict(body: DictUpdateBody, options?: CallOptions): Promise<void> {
  return http.put('api/dict', body, options);
}

export function createDictDetail(body: DictDetailBody, options?: CallOptions): Promise<void> {
  return http.post('api/dictDetail', body, options);
}

export function updateDictDetail(body: DictDetailUpdateBody, options?: CallOptions): Promise<void> {
  return http.put('api/dictDetail', body, options);
}

/** The one delete of the contract that takes its id in the path rather than a list in the body. */
export function deleteDictDetail(id: number): Promise<void> {
  return http.delete(`api/dictDetail/${id}`);
}
