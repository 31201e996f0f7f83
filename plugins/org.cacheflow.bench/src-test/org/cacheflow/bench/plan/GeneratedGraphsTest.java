package org.cacheflow.bench.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.cacheflow.analysis.GraphAnalysis;
import org.cacheflow.analysis.srdag.SingleRateExpansion;
import org.cacheflow.analysis.srdag.Srdag;
import org.cacheflow.analysis.srdag.SrdagInvariants;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The benchmark's graphs have the SRDAG sizes their documentation derives. */
class GeneratedGraphsTest {

  @ParameterizedTest
  @EnumSource(GeneratedGraphs.Family.class)
  void sizesMatchTheFormulas(GeneratedGraphs.Family family) {
    for (long n : new long[] {2, 7, 50}) {
      Srdag dag = SingleRateExpansion.expand(GraphAnalysis.analyse(family.build(n), null, null).flatGraph());
      SrdagInvariants.check(dag);
      assertEquals(family.verticesFor(n), dag.vertexCount(), family + " N=" + n);
      assertEquals(family.edgesFor(n), dag.edgeCount(), family + " N=" + n);
    }
    assertEquals(124, family.parameterFor(1000));
  }

  @org.junit.jupiter.api.Test
  void medianOfEvenAndOddCounts() {
    assertEquals(2.0, ExpansionBenchmark.median(new double[] {3, 1, 2}));
    assertEquals(2.5, ExpansionBenchmark.median(new double[] {4, 1, 3, 2}));
  }
}
