"""What beats what in phase two, and the anti-trump suit (no I/O).

Rule sources: pagat.com Skitgubbe, "Play in the second phase" and "Playing
sequences in phase two"; "Anti-trumps"; the Swedish Goat Game / Flurst page,
"Beat it or eat it".
"""

from __future__ import annotations

from .rules import AntiTrump

__all__ = ["anti_trump_suit", "beats"]


def anti_trump_suit(rule: AntiTrump, trump: int) -> int:
    """The anti-trump suit (0..3) for ``rule`` when ``trump`` (0..3) is trumps, or -1 for none."""
    if rule is AntiTrump.SAME_COLOUR:
        return {0: 3, 3: 0, 1: 2, 2: 1}[trump]
    if rule is AntiTrump.ELECTRIC_CLUBS:
        return 3 if trump == 0 else 0
    return -1


def beats(play: int, top: int, trump: int, anti: int = -1, *, any_suit: bool = False) -> bool:
    """True if card set ``play`` beats card set ``top`` with ``trump`` the trump suit and
    ``anti`` the anti-trump suit (-1 for none): the same suit with its lowest card above
    the top's highest, or a trump on anything but a trump or an anti-trump.  With
    ``any_suit`` (``Rules.beat_any_suit``) a non-trump play whose lowest card is of a higher
    rank than the top's highest also beats a non-trump top of another suit (not an anti-trump)."""
    th = top.bit_length() - 1
    pl = (play & -play).bit_length() - 1
    if pl // 13 == th // 13:
        return pl > th
    if any_suit and pl // 13 != trump and th // 13 not in (trump, anti):
        return pl % 13 > th % 13
    return pl // 13 == trump and th // 13 != anti
