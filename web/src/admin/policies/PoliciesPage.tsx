import { Stack, Tabs } from "@mantine/core";
import { useT } from "../../i18n";
import { PageHeader } from "../../common/ui";
import { BudgetsPanel } from "./BudgetsPanel";
import { PoliciesPanel } from "./PoliciesPanel";

export default function PoliciesPage() {
  const t = useT();
  return (
    <Stack>
      <PageHeader title={t("nav.policies")} description={t("policies.description")} />
      <Tabs defaultValue="policies" keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="policies">{t("policies.title")}</Tabs.Tab>
          <Tabs.Tab value="budgets">{t("budgets.title")}</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="policies" pt="md">
          <PoliciesPanel />
        </Tabs.Panel>
        <Tabs.Panel value="budgets" pt="md">
          <BudgetsPanel />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}
