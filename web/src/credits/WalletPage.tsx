import { Badge, Card, Stack, Table, Text, Title } from "@mantine/core";
import { useQuery } from "urql";
import { graphql } from "../gql";
import { useLanguage } from "../i18n";
import { formatCredits, formatDateTime } from "../common/format";
import { PageHeader, QueryState } from "../common/ui";
import { WalletCard } from "./WalletCard";
import { LedgerTable } from "./LedgerTable";

const MyWalletDocument = graphql(`
  query MyWallet {
    myWallet {
      id
      holds {
        id
        status
        createdAt
        memo
        amount {
          credits
        }
        reserved {
          credits
        }
        charged {
          credits
        }
      }
    }
  }
`);

export default function WalletPage() {
  const { t, language } = useLanguage();
  const [r] = useQuery({ query: MyWalletDocument });
  const w = r.data?.myWallet;
  return (
    <Stack>
      <PageHeader title={t("nav.wallet")} description={t("wallet.description")} />
      <WalletCard />
      <QueryState fetching={r.fetching} error={r.error}>
        {w && w.holds.length > 0 && (
          <Card withBorder>
            <Title order={5} mb="xs">
              {t("wallet.holds")}
            </Title>
            <Table fz="sm">
              <Table.Tbody>
                {w.holds.map((h) => (
                  <Table.Tr key={h.id}>
                    <Table.Td>{formatDateTime(h.createdAt, language)}</Table.Td>
                    <Table.Td>{h.memo}</Table.Td>
                    <Table.Td>
                      <Badge variant="light">{h.status}</Badge>
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm">{t("wallet.holdLine", { reserved: formatCredits(h.reserved.credits, language), charged: formatCredits(h.charged.credits, language) })}</Text>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Card>
        )}
        {w && (
          <Card withBorder>
            <Title order={5} mb="xs">
              {t("wallet.history")}
            </Title>
            <LedgerTable accountId={w.id} />
          </Card>
        )}
      </QueryState>
    </Stack>
  );
}
