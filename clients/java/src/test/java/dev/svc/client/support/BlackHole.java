package dev.svc.client.support;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A loopback port that accepts connections and never answers: a validator behind it is "slow", every
 * call runs into its deadline.
 */
public final class BlackHole implements AutoCloseable {
    private final ServerSocket socket;
    private final List<Socket> accepted = new CopyOnWriteArrayList<>();

    public BlackHole() throws IOException {
        socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread acceptor = new Thread(() -> {
            while (!socket.isClosed()) {
                try {
                    accepted.add(socket.accept());
                } catch (IOException e) {
                    return;
                }
            }
        }, "black-hole");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    public String address() {
        return "127.0.0.1:" + socket.getLocalPort();
    }

    @Override
    public void close() throws IOException {
        socket.close();
        for (Socket s : accepted) s.close();
    }
}
