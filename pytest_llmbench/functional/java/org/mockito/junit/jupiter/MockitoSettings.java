package org.mockito.junit.jupiter;

import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.junit.jupiter.api.extension.ExtendWith;
import org.mockito.quality.Strictness;

/**
 * The benchmark's stand-in for mockito-junit-jupiter's settings annotation (Debian ships
 * mockito-core alone): the strictness of the mocking session of each test of the class.
 */
@ExtendWith(MockitoExtension.class)
@Inherited
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface MockitoSettings {
    Strictness strictness() default Strictness.STRICT_STUBS;
}
