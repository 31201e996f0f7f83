/** Reader of PREESM scenarios, actor paths, C type sizes and the FIFO token size resolver. */
package org.cacheflow.io.scenario;
