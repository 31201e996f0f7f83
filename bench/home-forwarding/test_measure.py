#!/usr/bin/env python3
"""Unit tests of measure.py's round classification (host speed states, matched rounds):
python3 bench/home-forwarding/test_measure.py (the bench bundle's MeasureScriptTest runs it under ./mvnw verify)."""
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import measure  # noqa: E402


class SpeedStatesTest(unittest.TestCase):
    def test_rounds_within_the_margin_of_the_fastest_are_one_state(self):
        self.assertEqual(measure.speed_states([10.0, 11.4, 10.9]), [measure.ONE_STATE] * 3)

    def test_rounds_beyond_the_margin_are_slow(self):
        self.assertEqual(measure.speed_states([10.0, 15.0, 11.5, 11.6]), ["fast", "slow", "fast", "slow"])


class MatchedRoundsTest(unittest.TestCase):
    def test_rounds_where_both_ran_in_the_same_state(self):
        reference = ["fast", "fast", "slow", "slow"]
        variant = ["fast", "slow", "slow", "fast"]
        self.assertEqual(measure.matched_rounds(reference, variant), [0, 2])

    def test_no_round_matches_a_program_that_ran_in_one_state(self):
        # which state a program in one state ran in cannot be told from the run: none of its rounds is matched
        self.assertEqual(measure.matched_rounds(["fast", "slow"], [measure.ONE_STATE] * 2), [])
        self.assertEqual(measure.matched_rounds([measure.ONE_STATE] * 2, ["fast", "slow"]), [])


class MatchedCellTest(unittest.TestCase):
    # the 1-core program fast in rounds 0-2, the 2-core one fast in rounds 0 and 3 only (both vCPUs must be fast)
    sequential = [40.0, 41.0, 40.5, 60.0, 61.0]
    two_cores = [21.0, 31.0, 30.0, 20.5, 32.0]

    def cell(self, placements, probed=True, bound=2.0):
        rows = []
        speedups = [s / t for s, t in zip(self.sequential, self.two_cores)]
        cell = measure.matched_cell({"variant": "auto"}, rows, "auto", speedups,
                                    measure.speed_states(self.sequential), measure.speed_states(self.two_cores),
                                    placements, probed, bound)
        return cell, rows

    def test_the_speed_up_within_the_matched_near_rounds(self):
        cell, rows = self.cell(["near"] * 5)
        # matched: round 0 (both fast: 40 / 21) and round 4 (both slow: 61 / 32); not 1, 2 (fast / slow), 3
        speedup = sorted([40.0 / 21.0, 61.0 / 32.0])
        self.assertEqual(rows[0]["metric"], "speedup_vs_sequential_matched_state")
        self.assertEqual(rows[0]["rounds"], 2)
        self.assertAlmostEqual(rows[0]["median"], sum(speedup) / 2)
        self.assertEqual(rows[1]["metric"], "fraction_of_bound_matched_state")
        self.assertAlmostEqual(rows[1]["median"], sum(speedup) / 2 / 2.0)
        self.assertIn("in 2 (1 both fast)", cell)

    def test_rounds_outside_the_near_placement_are_left_out_when_probed(self):
        _, rows = self.cell(["far", "near", "near", "near", "near"])
        self.assertEqual(rows[0]["rounds"], 1)
        self.assertAlmostEqual(rows[0]["median"], 61.0 / 32.0)
        _, unprobed = self.cell(["far", "near", "near", "near", "near"], probed=False)
        self.assertEqual(unprobed[0]["rounds"], 2)

    def test_the_fraction_of_the_bound_given(self):
        _, rows = self.cell(["near"] * 5, bound=1.0)
        self.assertAlmostEqual(rows[1]["median"], rows[0]["median"])

    def test_a_variant_in_one_state_gets_no_figure(self):
        rows = []
        cell = measure.matched_cell({}, rows, "auto", [1.0] * 5, measure.speed_states(self.sequential),
                                    [measure.ONE_STATE] * 5, ["near"] * 5, True, 2.0)
        self.assertEqual(rows, [])
        self.assertIn("one state", cell)


if __name__ == "__main__":
    unittest.main()
