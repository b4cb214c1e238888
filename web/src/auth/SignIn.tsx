import { useEffect, useState } from "react";
import { Alert, Button, Center, Divider, Group, Paper, PasswordInput, SegmentedControl, Stack, TextInput, Title } from "@mantine/core";
import { useMutation, type CombinedError } from "urql";
import { graphql } from "../gql";
import { useLanguage, type Language } from "../i18n";
import { describeCombinedError, useFieldErrors } from "../common/errors";
import { GeneralErrors } from "../common/ui";
import { validateRequired } from "../common/validation";

const LoginDocument = graphql(`
  mutation Login($input: LoginInput!) {
    login(input: $input) {
      user {
        id
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

interface AuthConfig {
  oidc: boolean;
  oidcLoginUrl: string | null;
}

export function SignIn({ onSignedIn, loadError }: { onSignedIn(): void; loadError?: CombinedError }) {
  const { t, language, setLanguage } = useLanguage();
  const [username, setUsername] = useState("");
  const [password, setPassword] = useState("");
  const [local, setLocal] = useState<Record<string, string>>({});
  const [config, setConfig] = useState<AuthConfig | null>(null);
  const [{ fetching }, login] = useMutation(LoginDocument);
  const errors = useFieldErrors(["username", "password"]);

  useEffect(() => {
    let live = true;
    fetch("/auth/config", { credentials: "same-origin" })
      .then((r) => (r.ok ? r.json() : null))
      .then((c: AuthConfig | null) => live && setConfig(c))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, []);

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    const missing = validateRequired({ username, password });
    setLocal(Object.fromEntries(Object.keys(missing).map((k) => [k, t("validation.required")])));
    if (Object.keys(missing).length) return;
    const result = await login({ input: { username, password } });
    if (errors.take(result, (d) => d.login)) onSignedIn();
  };

  return (
    <Center mih="100vh" bg="gray.0">
      <Paper withBorder shadow="sm" p="xl" w={380} radius="md">
        <form onSubmit={submit} noValidate>
          <Stack>
            <Group justify="space-between">
              <Title order={2}>gshare</Title>
              <SegmentedControl
                size="xs"
                value={language}
                onChange={(v) => setLanguage(v as Language)}
                data={[
                  { value: "ko", label: <span lang="ko">한국어</span> },
                  { value: "en", label: <span lang="en">English</span> },
                ]}
                aria-label={t("shell.language")}
              />
            </Group>
            <Title order={4} fw={500}>
              {t("signIn.title")}
            </Title>
            {loadError && (
              <Alert color="red" title={t("common.loadFailed")} role="alert" data-testid="sign-in-load-error">
                {describeCombinedError(loadError, t)}
              </Alert>
            )}
            <TextInput
              label={t("signIn.username")}
              name="username"
              autoComplete="username"
              value={username}
              onChange={(e) => setUsername(e.currentTarget.value)}
              error={local.username ?? errors.field("username")}
              autoFocus
            />
            <PasswordInput
              label={t("signIn.password")}
              name="password"
              autoComplete="current-password"
              value={password}
              onChange={(e) => setPassword(e.currentTarget.value)}
              error={local.password ?? errors.field("password")}
            />
            <GeneralErrors messages={errors.general} />
            <Button type="submit" loading={fetching} fullWidth>
              {t("signIn.submit")}
            </Button>
            {config?.oidc && config.oidcLoginUrl && (
              <>
                <Divider label={t("signIn.or")} />
                <Button component="a" href={config.oidcLoginUrl} variant="default" fullWidth>
                  {t("signIn.oidc")}
                </Button>
              </>
            )}
          </Stack>
        </form>
      </Paper>
    </Center>
  );
}
