// One generation (one core, baseline), then an up-to-date check, then a skip.
def out = new File(basedir, 'target/baseline')
assert new File(out, 'core_0.c').isFile()
assert !new File(out, 'core_1.c').exists() : 'cores = 1'
def log = new File(basedir, 'build.log').text
assert log.count('1 cores, strategy baseline') == 1 : 'generated exactly once'
assert log.contains('inputs unchanged since the last generation')
assert log.contains('cacheflow: skipped (skip = true)')
return true
