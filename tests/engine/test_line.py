"""The line of play: first-tile placement, arms, the spinner, and counting the open ends."""

import unittest

from amigos.engine import Arm, IllegalAction, Line

from .helpers import spinner_line, t, two_ended

UP, DOWN, LEFT, RIGHT = Arm.UP, Arm.DOWN, Arm.LEFT, Arm.RIGHT


class TwoEndedLineTests(unittest.TestCase):
    def test_double_lead_shows_its_value_on_both_arms_and_next_tile_goes_up(self) -> None:
        line = two_ended("6-6")
        self.assertEqual(line.open_ends(), (6, 6))
        self.assertTrue(line.double_lead_pending)
        self.assertEqual(line.legal_arms(t("6-4")), (UP,))
        after = line.place(t("6-4"), UP)
        self.assertEqual(after.open_ends(), (4, 6))
        with self.assertRaises(IllegalAction):
            line.place(t("6-4"), DOWN)

    def test_mixed_lead_higher_half_up(self) -> None:
        line = two_ended("4-6")
        self.assertEqual(line.end(UP), 6)
        self.assertEqual(line.end(DOWN), 4)
        line = two_ended("0-5")
        self.assertEqual(line.open_ends(), (5, 0))

    def test_equal_ends_go_down(self) -> None:
        # 5-3 lead: up 5, down 3; 5-1 up and 3-1 down leave 1 and 1.
        line = two_ended("5-3", ("5-1", UP), ("3-1", DOWN))
        self.assertEqual(line.open_ends(), (1, 1))
        self.assertFalse(line.double_lead_pending)
        self.assertEqual(line.legal_arms(t("1-6")), (DOWN,))
        with self.assertRaises(IllegalAction) as caught:
            line.place(t("1-6"), UP)
        self.assertIn("down", caught.exception.reason)
        self.assertEqual(line.place(t("1-6"), DOWN).open_ends(), (1, 6))

    def test_double_on_equal_ends_goes_down(self) -> None:
        line = two_ended("5-3", ("5-1", UP), ("3-1", DOWN))
        self.assertEqual(line.legal_arms(t("1-1")), (DOWN,))

    def test_only_the_second_tile_after_a_double_lead_goes_up(self) -> None:
        # 4-4 lead, 4-2 up, 4-0 down, 2-0 up: ends 0 and 0 later in the hand go down.
        line = two_ended("4-4", ("4-2", UP), ("4-0", DOWN))
        self.assertEqual(line.open_ends(), (2, 0))
        line = line.place(t("2-0"), UP)
        self.assertEqual(line.open_ends(), (0, 0))
        self.assertEqual(line.legal_arms(t("0-6")), (DOWN,))

    def test_both_arms_when_results_differ(self) -> None:
        line = two_ended("6-3", ("3-4", DOWN))
        self.assertEqual(line.open_ends(), (6, 4))
        self.assertEqual(line.legal_arms(t("6-4")), (UP, DOWN))
        self.assertEqual(line.place(t("6-4"), UP).open_ends(), (4, 4))
        self.assertEqual(line.place(t("6-4"), DOWN).open_ends(), (6, 6))

    def test_refusals(self) -> None:
        line = two_ended("6-3")
        with self.assertRaises(IllegalAction):
            line.place(t("5-2"), UP)
        with self.assertRaises(IllegalAction):
            line.place(t("6-1"), LEFT)
        with self.assertRaises(IllegalAction):
            Line.empty(False).place(t("6-1"), UP)
        with self.assertRaises(IllegalAction):
            line.place_lead(t("1-1"))

    def test_text(self) -> None:
        line = two_ended("6-6", ("6-4", UP), ("6-3", DOWN), ("4-4", UP))
        self.assertEqual(str(line), "[4|4][4|6][6|6][6|3]")
        self.assertEqual(str(Line.empty(False)), "(empty)")
        line = spinner_line("4-4", ("4-2", LEFT), ("4-1", RIGHT), ("4-0", UP))
        self.assertEqual(str(line), "[2|4][4|4][4|1]  up: [4|0]")

    def test_tiles_in_order(self) -> None:
        line = two_ended("6-3", ("3-4", DOWN), ("6-6", UP))
        self.assertEqual(line.tiles, (t("6-3"), t("4-3"), t("6-6")))
        self.assertEqual(line.arm_tiles(DOWN), (t("4-3"),))


class SpinnerLineTests(unittest.TestCase):
    def test_lead_faces_left_as_written(self) -> None:
        line = spinner_line("5-3")
        self.assertEqual((line.end(LEFT), line.end(RIGHT)), (5, 3))
        line = spinner_line("3-5")
        self.assertEqual((line.end(LEFT), line.end(RIGHT)), (3, 5))
        self.assertIsNone(line.end(UP))
        self.assertIsNone(line.spinner)

    def test_double_lead_is_the_spinner_and_opens_up_down_after_both_sides(self) -> None:
        line = spinner_line("4-4")
        self.assertEqual(line.spinner, t("4-4"))
        self.assertEqual(line.open_arms(), (LEFT, RIGHT))
        self.assertEqual(line.legal_arms(t("4-2")), (LEFT, RIGHT))  # arms are distinct places
        line = line.place(t("4-2"), LEFT)
        self.assertEqual(line.open_arms(), (LEFT, RIGHT))
        line = line.place(t("4-1"), RIGHT)
        self.assertEqual(line.open_arms(), (LEFT, RIGHT, UP, DOWN))
        self.assertEqual((line.end(UP), line.end(DOWN)), (4, 4))
        line = line.place(t("4-0"), UP)
        self.assertEqual(line.end(UP), 0)

    def test_spinner_laid_later_continues_its_arm(self) -> None:
        line = spinner_line("6-3", ("3-3", RIGHT))
        self.assertEqual(line.spinner, t("3-3"))
        self.assertEqual(line.open_arms(), (LEFT, RIGHT))
        self.assertEqual(line.end(RIGHT), 3)
        line = line.place(t("3-2"), RIGHT)  # covers the spinner's second side
        self.assertEqual(line.open_arms(), (LEFT, RIGHT, UP, DOWN))
        self.assertEqual((line.end(UP), line.end(DOWN)), (3, 3))

    def test_only_the_first_double_spins(self) -> None:
        line = spinner_line("6-3", ("3-3", RIGHT), ("6-6", LEFT), ("6-1", LEFT))
        self.assertEqual(line.spinner, t("3-3"))
        self.assertEqual(line.open_arms(), (LEFT, RIGHT))

    def test_counting_open_ends(self) -> None:
        self.assertEqual(spinner_line("5-5").count(), 10)
        self.assertEqual(spinner_line("6-4").count(), 10)
        line = spinner_line("4-4", ("4-2", LEFT))
        self.assertEqual(line.count(), 2 + 8)  # the spinner still counts both halves
        line = line.place(t("4-1"), RIGHT)
        self.assertEqual(line.count(), 2 + 1)  # both sides covered: the spinner no longer counts
        line = line.place(t("4-0"), UP)
        self.assertEqual(line.count(), 3)
        line = line.place(t("4-5"), DOWN)
        self.assertEqual(line.count(), 8)

    def test_counting_a_double_at_an_end(self) -> None:
        line = spinner_line("6-3", ("3-3", RIGHT))
        self.assertEqual(line.count(), 6 + 6)
        line = line.place(t("3-2"), RIGHT)
        self.assertEqual(line.count(), 6 + 2)  # empty up/down arms do not count
        line = line.place(t("2-2"), RIGHT)
        self.assertEqual(line.count(), 6 + 4)
        self.assertEqual(line.open_arms(), (LEFT, RIGHT, UP, DOWN))

    def test_arm_not_open(self) -> None:
        line = spinner_line("4-4")
        with self.assertRaises(IllegalAction):
            line.place(t("4-3"), UP)


if __name__ == "__main__":
    unittest.main()
