"""A session asking for a class of cards (issue 17): the preset is sized on every card of the
class its image can drive, and the ask is priced at the dearest of them until it is placed;
what no card of the class can run is refused in words, naming the field."""

from __future__ import annotations

from fractions import Fraction
from uuid import uuid4

import pytest

from domain.catalog.errors import CatalogError
from domain.catalog.model import CardClass, CudaVersion, GpuTier, Image, ImageScope, Preset
from domain.common.errors import DomainError
from domain.sessions import services as s
from domain.sessions.model import GpuAsk, GpuChoice
from tests.unit.catalog.test_card_classes import A100, CATALOG, H100, L40, NOW, offering

ANY40 = offering("any-40GiB", 40960, 0, card_class=CardClass())


def image(cuda: str | None) -> Image:
    return Image(uuid4(), "torch", "torch:1", CudaVersion.parse(cuda) if cuda else None, ImageScope.GLOBAL, NOW)


def preset(tier: GpuTier, cards: int = 0, vram: int | None = None, cores: int | None = None) -> Preset:
    return Preset(uuid4(), "p", 4000, 16384, 50, 1024, tier, NOW, cards, vram, cores)


def req(**kw: object) -> s.SessionRequest:
    return s.SessionRequest(name="nb", image_id=uuid4(), **kw)  # type: ignore[arg-type]


def choice(card: object, vram: int, cores: int, ratio: Fraction) -> GpuChoice:
    return GpuChoice(card.name, vram, cores, ratio, card.hourly_rate_micro)  # type: ignore[attr-defined]


def test_a_share_of_a_class_is_sized_on_each_card_and_priced_at_the_dearest() -> None:
    ask = s._class_gpu_ask(ANY40, CATALOG, image("12.4"), preset(GpuTier.L), req())
    q = Fraction(1, 4)
    choices = (choice(A100, 20480, 25, q), choice(H100, 20480, 25, q), choice(L40, 12288, 25, q))
    assert ask == GpuAsk(ANY40.id, "any-40GiB", 20480, 25, 1, False, False, q, 4_000_000, choices=choices)
    # an image too old for one of them: that card is left out, and the dearest is another
    older = s._class_gpu_ask(ANY40, CATALOG, image("11.8"), preset(GpuTier.L), req(shared=True))
    assert older == GpuAsk(
        ANY40.id, "any-40GiB", 20480, 25, 1, False, True, q, 2_000_000, choices=(choices[0], choices[2])
    )


def test_whole_cards_of_a_class_take_each_cards_memory() -> None:
    got = s._class_gpu_ask(ANY40, CATALOG, image("12.4"), None, req(bundle_gpus=2))
    two = Fraction(2)
    assert got == GpuAsk(
        ANY40.id, "any-40GiB", 81920, 100, 2, True, False, two, 4_000_000,
        choices=(choice(A100, 81920, 100, two), choice(H100, 81920, 100, two), choice(L40, 49152, 100, two)),
    )  # fmt: skip


def test_cards_a_custom_preset_does_not_fit_are_left_out_and_none_fitting_is_the_first_cards_refusal() -> None:
    big = preset(GpuTier.CUSTOM, vram=60000, cores=50)
    got = s._class_gpu_ask(ANY40, CATALOG, image("12.4"), big, req())
    assert [c.model for c in got.choices] == ["A100-80GB", "H100-80GB"]
    assert (got.vram_mib, got.cores, got.ratio) == (60000, 50, Fraction(60000, 81920))
    with pytest.raises(CatalogError) as none:
        s._class_gpu_ask(ANY40, CATALOG, image("12.4"), preset(GpuTier.CUSTOM, vram=90000, cores=50), req())
    assert (none.value.field, none.value.message) == (
        "presetId", "preset p asks 90000 MiB / 50% but one A100-80GB card has 81920 MiB / 100%",
    )  # fmt: skip


def test_a_preset_whole_on_some_cards_and_a_share_on_others_is_refused() -> None:
    mixed = preset(GpuTier.CUSTOM, vram=49152, cores=50)  # all of an L40S, 60 % of an A100
    with pytest.raises(DomainError) as err:
        s._class_gpu_ask(ANY40, CATALOG, image("12.4"), mixed, req())
    assert (err.value.code.value, err.value.field, err.value.message) == (
        "INVALID_VALUE", "presetId",
        "the preset takes whole cards on some cards of any-40GiB and a share on others; choose a tier preset",
    )  # fmt: skip


def test_a_class_no_card_belongs_to_or_no_card_of_which_runs_the_image_is_refused_in_words() -> None:
    nobody = offering("ghosts", 1, 0, card_class=CardClass(("B200",)))
    with pytest.raises(DomainError) as empty:
        s._class_gpu_ask(nobody, CATALOG, image("12.4"), preset(GpuTier.L), req())
    assert (empty.value.field, empty.value.message) == ("offeringId", "no enabled card model belongs to ghosts")
    for cuda, have in [(None, "no CUDA"), ("10.2", "10.2")]:
        with pytest.raises(CatalogError) as old:
            s._class_gpu_ask(ANY40, CATALOG, image(cuda), preset(GpuTier.L), req())
        assert (old.value.code.value, old.value.field, old.value.message) == (
            "CUDA_TOO_OLD", "imageId", f"image torch has {have}; no card of any-40GiB runs it",
        )  # fmt: skip
