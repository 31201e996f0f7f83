// The profile reached the generation: the measured annotation and timing are said, the program is written.
def out = new File(basedir, 'target/profiled')
assert new File(out, 'main.c').exists() : 'a program generated'
def log = new File(basedir, 'build.log').text
assert log.contains('facts measured (filter_bank/Blur.out WRITE_ONLY)') : 'the measured annotation'
assert log.contains("actor timings: the profile's medians, in ns") : 'the measured timing'
return true
