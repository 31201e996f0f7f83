/** Reader of SDF3 XML graphs (type sdf). */
package org.cacheflow.io.sdf3;
