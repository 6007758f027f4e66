import type { DictBody, DictDetailBody, DictDetailUpdateBody, DictUpdateBody } from '@cloud-classroom/shared/dicts';
import { http } from '../../lib/http-client';

export function createDict(body: DictBody): Promise<void> {
  return http.post('api/dict', body);
}

export function updateDict(body: DictUpdateBody): Promise<void> {
  return http.put('api/dict', body);
}

export function createDictDetail(body: DictDetailBody): Promise<void> {
  return http.post('api/dictDetail', body);
}

export function updateDictDetail(body: DictDetailUpdateBody): Promise<void> {
  return http.put('api/dictDetail', body);
}

/** The one delete of the contract that takes its id in the path rather than a list in the body. */
export function deleteDictDetail(id: number): Promise<void> {
  return http.delete(`api/dictDetail/${id}`);
}
