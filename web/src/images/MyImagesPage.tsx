import { Stack } from "@mantine/core";
import { useT } from "../i18n";
import { PageHeader } from "../common/ui";
import { ImagesPanel } from "./ImagesPanel";

export default function MyImagesPage() {
  const t = useT();
  return (
    <Stack>
      <PageHeader title={t("nav.myImages")} description={t("images.myDescription")} />
      <ImagesPanel admin={false} />
    </Stack>
  );
}
