package org.cacheflow.codegen;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.cacheflow.codegen.model.CodeProject;
import org.cacheflow.codegen.model.Core;
import org.cacheflow.codegen.model.Statement;
import org.cacheflow.model.diagnostics.InputException;
import org.cacheflow.plan.srdag.Srdag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What the code model holds for the test graph under each strategy. */
class CodeModelBuilderTest {

  private static final Srdag TINY = TestInputs.srdag(TestInputs.TINY.resolve("Algo/tiny.pi"), null);

  private static List<Statement> all(CodeProject project) {
    return project.cores().stream().flatMap(c -> c.loop().stream()).toList();
  }

  private static long count(CodeProject project, Class<?> kind) {
    return all(project).stream().filter(kind::isInstance).count();
  }

  @Test
  void baselineCopiesSignalsWithSemaphoresAndMeetsEveryIteration() {
    CodeProject project = TestInputs.model(TINY, 2, "baseline", false);
    assertTrue(project.barrier());
    assertTrue(project.channels().isEmpty());
    assertTrue(project.semaphores() > 0, "the interim mapping puts actors on both cores");
    assertEquals(project.semaphores(), count(project, Statement.SemaphorePost.class));
    assertEquals(project.semaphores(), count(project, Statement.SemaphoreWait.class));
    // every special vertex copies: the broadcast twice, the fork four slices, the join four
    assertEquals(2 + 4 + 4, all(project).stream().filter(s -> s instanceof Statement.Copy c
        && !c.why().contains("init") && !c.why().contains("end")).count());
  }

  @Test
  void pipelinedStrategiesUseChannelsReservedBeforeAndCommittedAfterUse() {
    CodeProject project = TestInputs.model(TINY, 2, "channels", false);
    assertFalse(project.barrier());
    assertEquals(0, project.semaphores());
    assertFalse(project.channels().isEmpty());
    for (Core core : project.cores()) {
      int open = 0;
      for (Statement statement : core.loop()) {
        if (statement instanceof Statement.ChannelReserve || statement instanceof Statement.ChannelAcquire) {
          open++;
        } else if (statement instanceof Statement.ChannelCommit || statement instanceof Statement.ChannelRelease) {
          open--;
        }
        assertTrue(open >= 0, "a commit or release before its reserve or acquire");
      }
      assertEquals(0, open, "every reserved or acquired slot is handed on within the iteration");
    }
    assertEquals(count(project, Statement.ChannelReserve.class), count(project, Statement.ChannelCommit.class));
  }

  @Test
  void aliasingRemovesTheCopiesOfSpecialActorsOnOneCore() {
    CodeProject copying = TestInputs.model(TINY, 1, "channels", false);
    CodeProject aliased = TestInputs.model(TINY, 1, "alias", false);
    assertTrue(count(aliased, Statement.Copy.class) < count(copying, Statement.Copy.class));
    // the broadcast output read by Sum (whose port may write) must still be a copy
    assertTrue(all(aliased).stream().anyMatch(s -> s instanceof Statement.Copy c && c.why().contains("Bcast")));
    assertTrue(aliased.buffers().size() < copying.buffers().size());
  }

  @Test
  void copyOnWriteServesTheBroadcast() {
    CodeProject project = TestInputs.model(TINY, 2, "cow", true);
    assertEquals(1, project.cowBuffers().size());
    assertEquals(2, project.cowBuffers().get(0).views());
    assertEquals(1, count(project, Statement.CowWriteBegin.class));
    assertEquals(2, count(project, Statement.CowAcquire.class));
    assertEquals(2, count(project, Statement.CowRelease.class));
  }

  @Test
  void persistentDelayIsDoubleBufferedOnOneCore() {
    CodeProject project = TestInputs.model(TINY, 1, "auto", true);
    assertTrue(project.buffers().stream().anyMatch(b -> b.copies() == 2 && b.description().contains("delay")));
  }

  @Test
  void syntheticActorsFollowThePrototypeOrderAndAnnotations() {
    CodeProject project = TestInputs.model(TINY, 1, "auto", true);
    var sum = project.declarations().stream().filter(a -> a.actor().equals("Sum")).findFirst().orElseThrow();
    assertEquals(List.of("size", "frame", "previous", "state", "total"), sum.parameters().stream()
        .map(p -> p.name()).toList());
    assertEquals(List.of("CONFIG", "READ_SCRIBBLE", "READ", "WRITE", "WRITE"), sum.parameters().stream()
        .map(p -> p.use().name()).toList());
  }

  @Test
  void aPrototypeParameterWithoutAPortIsReportedAtItsLocation(@TempDir Path dir) throws IOException {
    String text = Files.readString(TestInputs.TINY.resolve("Algo/tiny.pi")).replace(
        "<param direction=\"IN\" isConfig=\"false\" name=\"in\" type=\"unsigned char\"/>",
        "<param direction=\"IN\" isConfig=\"false\" name=\"input\" type=\"unsigned char\"/>");
    Path graph = dir.resolve("tiny.pi");
    Files.writeString(graph, text);
    Srdag srdag = TestInputs.srdag(graph, null);
    InputException error = assertThrows(InputException.class, () -> TestInputs.model(srdag, 1, "baseline", false));
    assertTrue(error.describe().contains("tiny.pi:"), error.describe());
    assertTrue(error.getMessage().contains("'input' of prototype 'scale'"), error.getMessage());
    // synthetic actors do not need the prototype to match
    assertFalse(TestInputs.model(srdag, 1, "baseline", true).cores().isEmpty());
  }
}
