import { useCallback, useMemo, useState } from "react";
import { Button, Group, Text } from "@mantine/core";
import { useT } from "../i18n";

export const PAGE_SIZE = 20;

/** Relay forward pagination: `first`/`after`, with the cursors of earlier pages kept so the
 * user can go back. Reset whenever the filters change (pass them as `resetKey`). */
export function useCursorPages(pageSize = PAGE_SIZE, resetKey = "") {
  const [state, setState] = useState<{ key: string; stack: (string | null)[] }>({ key: resetKey, stack: [null] });
  const stack = useMemo(() => (state.key === resetKey ? state.stack : [null]), [state, resetKey]);
  const after = stack[stack.length - 1];
  const next = useCallback(
    (endCursor: string | null | undefined) => {
      if (endCursor) setState({ key: resetKey, stack: [...stack, endCursor] });
    },
    [stack, resetKey],
  );
  const prev = useCallback(() => {
    if (stack.length > 1) setState({ key: resetKey, stack: stack.slice(0, -1) });
  }, [stack, resetKey]);
  const reset = useCallback(() => setState({ key: resetKey, stack: [null] }), [resetKey]);
  return { variables: { first: pageSize, after }, page: stack.length, next, prev, reset, pageSize };
}

interface PagerProps {
  pages: ReturnType<typeof useCursorPages>;
  pageInfo?: { hasNextPage: boolean; endCursor?: string | null } | null;
  totalCount?: number | null;
  fetching?: boolean;
}

export function Pager({ pages, pageInfo, totalCount, fetching }: PagerProps) {
  const t = useT();
  const pageCount = totalCount != null ? Math.max(1, Math.ceil(totalCount / pages.pageSize)) : null;
  return (
    <Group justify="space-between" mt="sm" data-testid="pager">
      <Text size="sm" c="dimmed">
        {pageCount != null
          ? t("pager.summary", { page: pages.page, pages: pageCount, total: totalCount ?? 0 })
          : t("pager.page", { page: pages.page })}
      </Text>
      <Group gap="xs">
        <Button size="xs" variant="default" disabled={pages.page <= 1 || fetching} onClick={pages.prev}>
          {t("pager.previous")}
        </Button>
        <Button
          size="xs"
          variant="default"
          disabled={!pageInfo?.hasNextPage || fetching}
          onClick={() => pages.next(pageInfo?.endCursor)}
        >
          {t("pager.next")}
        </Button>
      </Group>
    </Group>
  );
}
