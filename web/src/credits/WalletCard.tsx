import { Anchor, Card, Group, SimpleGrid, Stack, Text, Title } from "@mantine/core";
import { useSubscription } from "urql";
import { Link } from "wouter";
import { useLanguage } from "../i18n";
import { formatCredits } from "../common/format";
import { MyWalletSubscription } from "./documents";

/** Balance, held and available credits of the viewer's wallet, pushed on every change. */
export function WalletCard() {
  const { t, language } = useLanguage();
  const [r] = useSubscription({ query: MyWalletSubscription });
  const w = r.data?.myWallet;
  const cell = (label: string, value: string | undefined, testid: string, strong = false) => (
    <Stack gap={0}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size={strong ? "xl" : "lg"} fw={strong ? 700 : 500} data-testid={testid}>
        {value == null ? "…" : formatCredits(value, language)}
      </Text>
    </Stack>
  );
  return (
    <Card withBorder data-testid="wallet">
      <Group justify="space-between" mb="xs">
        <Title order={4}>{t("wallet.title")}</Title>
        <Anchor component={Link} href="/wallet" size="sm">
          {t("wallet.history")}
        </Anchor>
      </Group>
      {r.error && !w ? (
        <Text size="sm" c="red">
          {r.error.message}
        </Text>
      ) : (
        <SimpleGrid cols={3}>
          {cell(t("wallet.available"), w?.available.credits, "wallet-available", true)}
          {cell(t("wallet.balance"), w?.balance.credits, "wallet-balance")}
          {cell(t("wallet.held"), w?.held.credits, "wallet-held")}
        </SimpleGrid>
      )}
    </Card>
  );
}
