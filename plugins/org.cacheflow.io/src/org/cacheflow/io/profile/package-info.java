/** The profile file {@code cacheflow profile} writes and {@code --profile} reads ({@code profile.json}). */
package org.cacheflow.io.profile;
