package org.cacheflow.workflow.run;

import java.util.ArrayList;
import java.util.List;

import org.cacheflow.model.diagnostics.Diagnostics;
import org.cacheflow.model.diagnostics.SourceLocation;

/** A generator that only records what it is asked, and a listener that records notes. */
final class RecordingGenerator implements CodeGenerator, RunListener {

  record Note(SourceLocation location, String message) {
  }

  final List<GenerationRequest> requests = new ArrayList<>();
  final List<Note> notes = new ArrayList<>();
  final List<Generation> generations = new ArrayList<>();

  @Override
  public GeneratedCode generate(GenerationRequest request, Diagnostics diagnostics) {
    requests.add(request);
    return new GeneratedCode(request.outputDirectory(), "recorded");
  }

  @Override
  public void note(SourceLocation location, String message) {
    notes.add(new Note(location, message));
  }

  @Override
  public void generated(Generation generation) {
    generations.add(generation);
  }

  List<String> noteMessages() {
    return notes.stream().map(Note::message).toList();
  }
}
