/** Reader of target files (a cache hierarchy's settings: {@code key = value} lines or one flat JSON object). */
package org.cacheflow.io.targetfile;
