package org.cacheflow.report;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;

import org.cacheflow.model.diagnostics.SourceLocation;
import org.cacheflow.plan.memory.ScriptReport;
import org.cacheflow.scripts.FifoMark;
import org.cacheflow.scripts.MarkRecord;
import org.cacheflow.scripts.merge.MergeResult;
import org.cacheflow.scripts.merge.Piece;
import org.junit.jupiter.api.Test;

/**
 * The memory-script report as JSON, on a report built by hand: context first, failed instances with their error
 * (a missing script as null), merge groups in bits with their bytes, marks once per label, nothing HTML-escaped.
 * Instances with matches are compared with the command line's output on the examples and corpus applications.
 */
class ScriptReportJsonTest {

  @Test
  void handBuiltReportPrintsOnOneLineInTheReportsOrder() {
    MergeResult merge = new MergeResult(Map.of(), Map.of(), List.of(new MergeResult.Group("r", 0, 8000,
        List.of(new MergeResult.Member("m", List.of(new Piece(0, 8000, "r", 0)))))), List.of("not <merged>"), 3000,
        2000);
    SourceLocation at = new SourceLocation("c.bsh", 3, 1);
    MarkRecord mark = new MarkRecord("f", FifoMark.PRIVATE, "top/C_0", "i_i", at);
    ScriptReport report = new ScriptReport("top", List.of(
        new ScriptReport.Instance("top/B_0", "top/B", "Code/Scripts/b.bsh", null, List.of(), "b.bsh:1:7: x <= 'y' & z"),
        new ScriptReport.Instance("top/C_0", "top/C", null, null, List.of(), "no script")), merge,
        Map.of("f", List.of(mark, mark)), List.of("b.bsh:1:7: x <= 'y' & z"));

    String expected = "{\"source\":\"Algo/top.pi\",\"graph\":\"top\",\"instances\":["
        + "{\"vertex\":\"top/B_0\",\"actor\":\"top/B\",\"script\":\"Code/Scripts/b.bsh\","
        + "\"error\":\"b.bsh:1:7: x <= 'y' & z\"},"
        + "{\"vertex\":\"top/C_0\",\"actor\":\"top/C\",\"script\":null,\"error\":\"no script\"}],"
        + "\"mergeGroups\":[{\"root\":\"r\",\"bytes\":1000,\"extentStartBits\":0,\"extentEndBits\":8000,"
        + "\"members\":[{\"fifo\":\"m\",\"pieces\":[{\"startBits\":0,\"lengthBits\":8000,\"root\":\"r\","
        + "\"rootStartBits\":0}]}]}],"
        + "\"marks\":{\"f\":[\"" + FifoMark.PRIVATE.label() + "\"]},\"mergesNotApplied\":[\"not <merged>\"],"
        + "\"errors\":[\"b.bsh:1:7: x <= 'y' & z\"],\"bytesBefore\":3000,\"bytesAfter\":2000,\"bytesSaved\":1000}";
    assertEquals(expected, ScriptReportJson.compact(report, Map.of("source", "Algo/top.pi")));
  }
}
