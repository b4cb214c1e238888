import { useState } from "react";
import { Alert, Badge, Button, Code, CopyButton, Group, Modal, NumberInput, Paper, Select, Stack, Table, Text, TextInput } from "@mantine/core";
import { useMutation, useQuery } from "urql";
import { graphql } from "../gql";
import type { TokenScope } from "../gql/graphql";
import { useLanguage } from "../i18n";
import { useFieldErrors } from "../common/errors";
import { formatDateTime } from "../common/format";
import { Pager, useCursorPages } from "../common/pagination";
import { Empty, GeneralErrors, PageHeader, QueryState, WithCode } from "../common/ui";
import { checkInt } from "../common/validation";

const TokensDocument = graphql(`
  query PersonalAccessTokens($first: Int, $after: String) {
    personalAccessTokens(first: $first, after: $after) {
      totalCount
      pageInfo {
        hasNextPage
        endCursor
      }
      nodes {
        id
        name
        scope
        tokenPrefix
        createdAt
        expiresAt
        revokedAt
        lastUsedAt
        active
      }
    }
  }
`);

const TokenCreateDocument = graphql(`
  mutation PersonalAccessTokenCreate($input: PersonalAccessTokenCreateInput!) {
    personalAccessTokenCreate(input: $input) {
      secret
      token {
        id
        name
      }
      errors {
        params {
          name
          value
        }
        code
        field
        message
      }
    }
  }
`);

const TokenRevokeDocument = graphql(`
  mutation PersonalAccessTokenRevoke($input: IdInput!) {
    personalAccessTokenRevoke(input: $input) {
      token {
        id
        active
        revokedAt
      }
      errors {
        params {
          name
          value
        }
        code
        field
        message
      }
    }
  }
`);

export default function TokensPage() {
  const { t, language } = useLanguage();
  const pages = useCursorPages();
  const [result, refetch] = useQuery({ query: TokensDocument, variables: pages.variables });
  const [name, setName] = useState("");
  const [scope, setScope] = useState<TokenScope>("READ_ONLY");
  const [days, setDays] = useState<string>("90");
  const [secret, setSecret] = useState<string | null>(null);
  const [local, setLocal] = useState<Record<string, string>>({});
  const [{ fetching: creating }, create] = useMutation(TokenCreateDocument);
  const [{ fetching: revoking }, revoke] = useMutation(TokenRevokeDocument);
  const errors = useFieldErrors(["name", "scope", "expiresInDays"]);
  const revokeErrors = useFieldErrors([]);

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    const problems: Record<string, string> = {};
    if (!name.trim()) problems.name = t("validation.required");
    if (days.trim() && checkInt(days, 1, 366)) problems.expiresInDays = t("validation.days");
    setLocal(problems);
    if (Object.keys(problems).length) return;
    const r = await create({
      input: { name: name.trim(), scope, expiresInDays: days.trim() ? Number(days) : null },
    });
    if (errors.take(r, (d) => d.personalAccessTokenCreate)) {
      setSecret(r.data?.personalAccessTokenCreate.secret ?? null);
      setName("");
      // the new token is the newest: show the first page
      if (pages.page > 1) pages.reset();
      else refetch({ requestPolicy: "network-only" });
    }
  };

  const conn = result.data?.personalAccessTokens;
  const tokens = conn?.nodes ?? [];
  return (
    <Stack>
      <PageHeader title={t("tokens.title")} description={t("tokens.description")} />
      <Paper withBorder p="md">
        <form onSubmit={submit} noValidate>
          <Group align="flex-start" wrap="wrap">
            <TextInput
              label={t("tokens.name")}
              name="name"
              value={name}
              onChange={(e) => setName(e.currentTarget.value)}
              error={local.name ?? errors.field("name")}
              w={240}
            />
            <Select
              label={t("tokens.scope")}
              value={scope}
              onChange={(v) => setScope((v as TokenScope) ?? "READ_ONLY")}
              data={[
                { value: "READ_ONLY", label: t("tokens.scope.READ_ONLY") },
                { value: "READ_WRITE", label: t("tokens.scope.READ_WRITE") },
              ]}
              error={errors.field("scope")}
              allowDeselect={false}
              w={180}
            />
            <NumberInput
              label={t("tokens.expiresInDays")}
              description={t("tokens.expiresHint")}
              value={days}
              onChange={(v) => setDays(String(v))}
              min={1}
              max={366}
              error={local.expiresInDays ?? errors.field("expiresInDays")}
              w={200}
            />
            <Button type="submit" mt={24} loading={creating}>
              {t("tokens.create")}
            </Button>
          </Group>
          <GeneralErrors messages={errors.general} />
        </form>
      </Paper>
      <GeneralErrors messages={revokeErrors.general} />
      <QueryState fetching={result.fetching} error={result.error}>
        {tokens.length === 0 ? (
          <Empty>{t("tokens.none")}</Empty>
        ) : (
          <Table striped withTableBorder>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t("tokens.name")}</Table.Th>
                <Table.Th>{t("tokens.prefix")}</Table.Th>
                <Table.Th>{t("tokens.scope")}</Table.Th>
                <Table.Th>{t("common.created")}</Table.Th>
                <Table.Th>{t("tokens.expires")}</Table.Th>
                <Table.Th>{t("tokens.lastUsed")}</Table.Th>
                <Table.Th>{t("common.status")}</Table.Th>
                <Table.Th />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {tokens.map((tok) => (
                <Table.Tr key={tok.id}>
                  <Table.Td>{tok.name}</Table.Td>
                  <Table.Td>
                    <Code>{tok.tokenPrefix}…</Code>
                  </Table.Td>
                  <Table.Td>{t(`tokens.scope.${tok.scope}`)}</Table.Td>
                  <Table.Td>{formatDateTime(tok.createdAt, language)}</Table.Td>
                  <Table.Td>{tok.expiresAt ? formatDateTime(tok.expiresAt, language) : t("tokens.never")}</Table.Td>
                  <Table.Td>{formatDateTime(tok.lastUsedAt, language)}</Table.Td>
                  <Table.Td>
                    <Badge color={tok.active ? "teal" : "gray"}>{tok.active ? t("tokens.active") : tok.revokedAt ? t("tokens.revoked") : t("tokens.expired")}</Badge>
                  </Table.Td>
                  <Table.Td>
                    {tok.active && (
                      <Button
                        size="xs"
                        color="red"
                        variant="light"
                        loading={revoking}
                        onClick={async () => {
                          if (!window.confirm(t("tokens.revokeConfirm", { name: tok.name }))) return;
                          const r = await revoke({ input: { id: tok.id } });
                          revokeErrors.take(r, (d) => d.personalAccessTokenRevoke);
                        }}
                      >
                        {t("tokens.revoke")}
                      </Button>
                    )}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
        <Pager pages={pages} pageInfo={conn?.pageInfo} totalCount={conn?.totalCount} fetching={result.fetching} />
      </QueryState>
      <Modal opened={secret !== null} onClose={() => setSecret(null)} title={t("tokens.secretTitle")} size="lg">
        <Stack>
          <Alert color="yellow">{t("tokens.secretOnce")}</Alert>
          <Code block data-testid="token-secret">
            {secret}
          </Code>
          <Group justify="flex-end">
            <CopyButton value={secret ?? ""}>
              {({ copied, copy }) => (
                <Button variant="default" onClick={copy}>
                  {copied ? t("common.copied") : t("common.copy")}
                </Button>
              )}
            </CopyButton>
            <Button onClick={() => setSecret(null)}>{t("tokens.secretStored")}</Button>
          </Group>
        </Stack>
      </Modal>
      <Text size="xs" c="dimmed">
        <WithCode text={t("tokens.usage")} />
      </Text>
    </Stack>
  );
}
