import { create } from 'zustand';
import {
  addCachedView,
  addVisitedView,
  closeAllVisitedViews,
  closeOtherVisitedViews,
  closeVisitedView,
  type VisitedView,
} from './tags-view-rules';

type TagsViewState = {
  visitedViews: VisitedView[];
  cachedViews: string[];
  /** Bumped to re-mount a view's page: the refresh of the tab menu, the size change, /redirect. */
  refreshKeys: Record<string, number>;
  addView: (view: VisitedView) => void;
  closeView: (path: string) => void;
  closeOthers: (path: string) => void;
  closeAll: () => void;
  refreshView: (path: string) => void;
  reset: () => void;
};

function keepCachedOf(views: readonly VisitedView[], names: readonly string[]): string[] {
  return names.filter((name) => views.some((view) => view.name === name));
}

export const useTagsViewStore = create<TagsViewState>()((set) => ({
  visitedViews: [],
  cachedViews: [],
  refreshKeys: {},
  addView: (view) =>
    set((state) => ({
      visitedViews: addVisitedView(state.visitedViews, view),
      cachedViews: addCachedView(state.cachedViews, view),
    })),
  closeView: (path) =>
    set((state) => {
      const visitedViews = closeVisitedView(state.visitedViews, path);
      return { visitedViews, cachedViews: keepCachedOf(visitedViews, state.cachedViews) };
    }),
  closeOthers: (path) =>
    set((state) => {
      const visitedViews = closeOtherVisitedViews(state.visitedViews, path);
      return { visitedViews, cachedViews: keepCachedOf(visitedViews, state.cachedViews) };
    }),
  closeAll: () =>
    set((state) => {
      const visitedViews = closeAllVisitedViews(state.visitedViews);
      return { visitedViews, cachedViews: keepCachedOf(visitedViews, state.cachedViews) };
    }),
  refreshView: (path) => set((state) => ({ refreshKeys: { ...state.refreshKeys, [path]: (state.refreshKeys[path] ?? 0) + 1 } })),
  reset: () => set({ visitedViews: [], cachedViews: [], refreshKeys: {} }),
}));
