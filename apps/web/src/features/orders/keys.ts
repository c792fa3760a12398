// The orders page's query keys: one list per user and filter set; a status check or a live update
// reaches every filter set of the user through `ofUser`.

export const orderKeys = {
  all: () => ['orders'] as const,
  ofUser: (userId: number) => [...orderKeys.all(), userId] as const,
  // The filters' type lives with the page's calls (api.ts); any object stands for it here.
  list: <F extends object>(userId: number, filters: F) => [...orderKeys.ofUser(userId), filters] as const,
};
