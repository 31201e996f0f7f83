/** Reader of PREESM S-LAM architectures (cores, core types, ids, main core). */
package org.cacheflow.io.slam;
