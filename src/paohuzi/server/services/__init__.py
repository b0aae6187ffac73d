"""What the endpoints do beyond reading and answering: claiming a room's seats, starting a match."""
