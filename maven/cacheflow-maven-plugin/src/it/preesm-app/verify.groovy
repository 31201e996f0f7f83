// The real actors were built with zlib and ran: one CRC-32 line per frame of the data file (computed here from
// the file), and the run stopped after the last frame although 100 iterations were asked for (preesmStopThreads).
import java.util.zip.CRC32
import java.util.zip.GZIPInputStream

def generated = new File(basedir, 'target/generated')
assert new File(generated, 'CMakeLists.txt').isFile()
assert !new File(generated, 'synthetic_actors.c').exists() : 'the workflow asks for the real actors'
def cmake = new File(generated, 'CMakeLists.txt').text
assert cmake.contains('set(CACHEFLOW_ACTOR_LIBRARIES "ZLIB::ZLIB"') : 'the task names the library'

def example = (new File(basedir, 'pom.xml').text =~ /<input>(.*)<\/input>/)[0][1]
def data = new GZIPInputStream(new FileInputStream(new File(example, 'Code/dat/frames.gz'))).bytes
def frameBytes = 32 * 16
def expected = []
for (int frame = 0; frame * frameBytes < data.length; frame++) {
    def crc = new CRC32()
    for (int i = 0; i < frameBytes; i++) {
        crc.update(255 - (data[frame * frameBytes + i] & 0xff))
    }
    expected << String.format('frame %d: crc32 %08x', frame, crc.value)
}
assert expected.size() == 6

def log = new File(basedir, 'build.log').text
def printed = log.readLines().findAll { it.startsWith('frame ') }
assert printed == expected
assert log.contains('for 6 iterations')
return true
