import { Stack, Tabs } from "@mantine/core";
import { useLocation, useParams } from "wouter";
import { useT } from "../../i18n";
import { PageHeader } from "../../common/ui";
import { useViewer } from "../../app/viewer";
import { ImagesPanel } from "../../images/ImagesPanel";
import { OfferingsPanel } from "./OfferingsPanel";
import { PresetsPanel } from "./PresetsPanel";
import { RegistriesPanel } from "./RegistriesPanel";

const TABS = ["offerings", "presets", "registries", "images"] as const;
type Tab = (typeof TABS)[number];

export default function CatalogPage() {
  const t = useT();
  const { admin } = useViewer();
  const [, navigate] = useLocation();
  const params = useParams<{ tab?: string }>();
  const tab: Tab = (TABS as readonly string[]).includes(params.tab ?? "") ? (params.tab as Tab) : "offerings";
  return (
    <Stack>
      <PageHeader title={t("nav.catalog")} description={t("catalog.description")} />
      <Tabs value={tab} onChange={(v) => v && navigate(`/admin/catalog/${v}`)} keepMounted={false}>
        <Tabs.List>
          {TABS.map((x) => (
            <Tabs.Tab key={x} value={x} data-testid={`catalog-tab-${x}`}>
              {t(`catalog.${x}`)}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        <Tabs.Panel value="offerings" pt="md">
          <OfferingsPanel canEdit={admin.superAdmin} />
        </Tabs.Panel>
        <Tabs.Panel value="presets" pt="md">
          <PresetsPanel canEdit={admin.superAdmin} />
        </Tabs.Panel>
        <Tabs.Panel value="registries" pt="md">
          <RegistriesPanel superAdmin={admin.superAdmin} />
        </Tabs.Panel>
        <Tabs.Panel value="images" pt="md">
          <ImagesPanel admin />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}
