package org.mockito.junit.jupiter;

import java.lang.reflect.Parameter;
import java.util.List;
import java.util.Optional;

import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.mockito.Mock;
import org.mockito.Mockito;
import org.mockito.MockitoSession;
import org.mockito.quality.Strictness;

/**
 * The benchmark's stand-in for mockito-junit-jupiter's extension, written on mockito-core's
 * session API: before each test the {@code @Mock}, {@code @Spy}, {@code @Captor} and
 * {@code @InjectMocks} fields of the test instance (and of enclosing instances of a
 * {@code @Nested} class) are filled; after it the session ends, which reports unused or
 * mismatched stubs under the default strict stubs. {@code @Mock} parameters get mocks.
 */
public class MockitoExtension implements BeforeEachCallback, AfterEachCallback, ParameterResolver {

    private static final ExtensionContext.Namespace NAMESPACE =
            ExtensionContext.Namespace.create(MockitoExtension.class);
    private static final String SESSION = "session";

    @Override
    public void beforeEach(ExtensionContext context) {
        List<Object> instances = context.getRequiredTestInstances().getAllInstances();
        MockitoSession session = Mockito.mockitoSession()
                .initMocks(instances.toArray())
                .strictness(strictness(context))
                .startMocking();
        context.getStore(NAMESPACE).put(SESSION, session);
    }

    @Override
    public void afterEach(ExtensionContext context) {
        MockitoSession session = context.getStore(NAMESPACE).remove(SESSION, MockitoSession.class);
        if (session != null) {
            session.finishMocking(context.getExecutionException().orElse(null));
        }
    }

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return parameter.isAnnotated(Mock.class);
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        Parameter declared = parameter.getParameter();
        Optional<Mock> mock = parameter.findAnnotation(Mock.class);
        String name = mock.map(Mock::name).filter(n -> !n.isEmpty()).orElse(declared.getName());
        return Mockito.mock(declared.getType(), name);
    }

    private static Strictness strictness(ExtensionContext context) {
        Optional<ExtensionContext> current = Optional.of(context);
        while (current.isPresent()) {
            Optional<MockitoSettings> settings = current.get().getElement()
                    .map(element -> element.getAnnotation(MockitoSettings.class));
            if (settings.isPresent()) {
                return settings.get().strictness();
            }
            current = current.get().getParent();
        }
        return Strictness.STRICT_STUBS;
    }
}
